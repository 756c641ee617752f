//! The memory a scenario needs, estimated before its layers are allocated, and the budget
//! it must fit: a map too large for the machine is an error naming its size, never an
//! abort when an allocation fails halfway through a run.
//!
//! The estimate is per cell. Measured on a 4096 × 4096 map (peak resident memory of
//! `influence render`, which holds every layer, the analysis, the route search and the
//! picture being encoded): about 62 bytes a cell with one team and no route, 74 with two
//! teams and a route, 98 with two teams under a diffusion, 124 with four. [`estimate`]
//! takes 80 bytes a cell, 4 more per team, and 12 more per team under a propagation — a
//! little above each of those, so that what passes the check fits.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::Invalid;
use crate::key::KeyPath;

/// The budget set by [`set_budget`]; 0 while unset.
static BUDGET: AtomicU64 = AtomicU64::new(0);

/// The budget when the machine's memory cannot be read: 4 GiB.
const FALLBACK: u64 = 4 << 30;

/// Sets the memory budget, in bytes, for every scenario checked after it (the command's
/// `--memory-budget`); 0 returns to the default, half the machine's memory.
pub fn set_budget(bytes: u64) {
    BUDGET.store(bytes, Ordering::Relaxed);
}

/// The memory budget in bytes: what [`set_budget`] set, or else half the machine's memory
/// (`MemTotal` of `/proc/meminfo`), or 4 GiB where that cannot be read.
pub fn budget() -> u64 {
    match BUDGET.load(Ordering::Relaxed) {
        0 => machine_memory().map_or(FALLBACK, |total| total / 2),
        set => set,
    }
}

/// Why the budget is what it is, for messages.
fn budget_origin() -> &'static str {
    match (BUDGET.load(Ordering::Relaxed), machine_memory()) {
        (0, Some(_)) => "half this machine's memory",
        (0, None) => "the default where the machine's memory cannot be read",
        _ => "as set",
    }
}

/// The machine's memory in bytes, where the system says.
fn machine_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.trim_start_matches("MemTotal:").trim().trim_end_matches("kB").trim().parse().ok()?;
    kib.checked_mul(1024)
}

/// The bytes a run of `cells` cells with `teams` teams needs, by the measured figures above.
pub fn estimate(cells: usize, teams: usize, propagation: bool) -> u64 {
    let teams = teams as u64;
    let per_cell = 80 + 4 * teams + if propagation { 12 * teams } else { 0 };
    (cells as u64).saturating_mul(per_cell)
}

/// `Ok` if a run of `cells` cells and `teams` teams fits the budget; else an error at `key`
/// naming both sizes.
pub(crate) fn check(key: &KeyPath, cells: usize, teams: usize, propagation: bool) -> Result<(), Invalid> {
    let (need, have) = (estimate(cells, teams, propagation), budget());
    if need <= have {
        return Ok(());
    }
    let teams = match teams {
        1 => "1 team".to_owned(),
        n => format!("{n} teams"),
    };
    let propagation = if propagation { " and a propagation" } else { "" };
    Err(Invalid::at(
        key,
        format!(
            "the map's {} cells with {teams}{propagation} need about {}, more than the memory budget of {} \
             ({}); use a smaller map, or raise the budget with --memory-budget",
            thousands(cells as u64),
            bytes(need),
            bytes(have),
            budget_origin(),
        ),
    ))
}

/// `n` with commas between thousands: 268,435,456.
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A size in bytes for people: "21.0 GiB", "512.0 MiB", "900 bytes".
fn bytes(n: u64) -> String {
    const UNITS: [(&str, u64); 3] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)];
    match UNITS.iter().find(|(_, size)| n >= *size) {
        Some((unit, size)) => format!("{:.1} {unit}", n as f64 / *size as f64),
        None => format!("{n} bytes"),
    }
}

/// A size as written on the command line: a whole number of bytes, or one with a suffix
/// `K`, `M`, `G` or `T` (powers of 1024; `KiB`, `MB` and the like are read the same).
///
/// # Errors
/// A message saying what was expected.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, unit) = t.split_at(split);
    let shift = match unit.trim().to_ascii_uppercase().trim_end_matches('B').trim_end_matches('I') {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return Err(format!("expected a size such as 8G, 512M or 1000000 (bytes), got {text:?}")),
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("expected a size such as 8G, 512M or 1000000 (bytes), got {text:?}"))?;
    match n.checked_mul(1 << shift) {
        Some(0) => Err("the memory budget must be more than 0 bytes".to_owned()),
        Some(b) => Ok(b),
        None => Err(format!("{text:?} is too large a size")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_and_print() {
        assert_eq!(parse_size("8G"), Ok(8 << 30));
        assert_eq!(parse_size("512MiB"), Ok(512 << 20));
        assert_eq!(parse_size("1000"), Ok(1000));
        assert!(parse_size("eight").is_err());
        assert!(parse_size("0").is_err());
        assert!(parse_size("99999999999T").is_err());
        assert_eq!(bytes(3 << 29), "1.5 GiB");
        assert_eq!(bytes(900), "900 bytes");
        assert_eq!(thousands(268_435_456), "268,435,456");
        assert_eq!(thousands(999), "999");
    }

    #[test]
    fn the_default_is_half_the_machine() {
        // Nothing in this test binary sets the budget.
        let total = machine_memory();
        assert_eq!(budget(), total.map_or(FALLBACK, |t| t / 2));
        assert!(budget() > 0);
    }

    #[test]
    fn the_estimate_grows_with_teams_and_propagation() {
        assert_eq!(estimate(1000, 2, false), 88_000);
        assert_eq!(estimate(1000, 2, true), 112_000);
        assert_eq!(estimate(usize::MAX, 2, true), u64::MAX);
    }
}
