//! Update scheduling: each layer at its own rate.
//!
//! "The Core Mechanics of Influence Mapping" suggests 0.5–1 Hz for strategic maps and
//! 2–5 Hz for tactical ones — "no influence maps really need to be updated at 30 FPS".
//! A [`Schedule`] takes the frame time and says which layers are due.
//!
//! Time does not drift: frame times are summed in `f64`, where a sum of `f32` frame times
//! is exact (for 1/60 s frames, for over six months of play), and a layer at `hz` is due for
//! its k-th run once the clock reaches `k / hz` — computed afresh from the clock each time,
//! never accumulated period by period — so after an hour of 60 fps frames a 2 Hz layer has
//! run exactly 7200 times. A layer is given the time its due
//! runs cover (a whole number of periods); if a frame spans several periods it runs once
//! with all of them, so a slow frame never triggers a catch-up spiral.

use crate::error::{non_negative, positive, Error};

/// Which layers are due, frame by frame; no layers and time 0 by default.
///
/// ```
/// use influence::propagate::Schedule;
/// let mut schedule = Schedule::default();
/// let strategic = schedule.add(0.5)?; // every 2 s
/// let tactical = schedule.add(4.0)?;
/// let mut runs = [0, 0];
/// for _ in 0..600 {
///     schedule.update(1.0 / 60.0, |layer, _dt| runs[layer] += 1)?; // ten seconds at 60 fps
/// }
/// assert_eq!(runs, [5, 40]);
/// # let _ = (strategic, tactical);
/// # Ok::<(), influence::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Schedule {
    now: f64,
    entries: Vec<Entry>,
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    hz: f64,
    /// Periods run so far.
    runs: u64,
}

impl Schedule {
    /// Adds a layer updated `hz` times a second; returns its index, counting from 0 in the
    /// order added. Its first run is due one period from now.
    ///
    /// # Errors
    /// [`Error::BadNumber`] unless `hz` is finite and positive.
    pub fn add(&mut self, hz: f32) -> Result<usize, Error> {
        let hz = f64::from(positive("update rate (Hz)", hz)?);
        self.entries.push(Entry { hz, runs: (self.now * hz).floor() as u64 });
        Ok(self.entries.len() - 1)
    }

    /// Changes a layer's rate from now on.
    ///
    /// # Errors
    /// [`Error::OutOfBounds`] for an unknown layer, [`Error::BadNumber`] for a bad rate.
    pub fn set_rate(&mut self, layer: usize, hz: f32) -> Result<(), Error> {
        let len = self.entries.len();
        let hz = f64::from(positive("update rate (Hz)", hz)?);
        let now = self.now;
        let e = self.entries.get_mut(layer).ok_or(Error::OutOfBounds { index: layer, len })?;
        *e = Entry { hz, runs: (now * hz).floor() as u64 };
        Ok(())
    }

    /// Seconds since the schedule started.
    pub fn now(&self) -> f64 {
        self.now
    }

    /// Advances the clock by `dt` seconds and calls `run(layer, elapsed)` for each layer
    /// that is due, in the order they were added, with the seconds its due periods cover.
    ///
    /// # Errors
    /// [`Error::BadNumber`] unless `dt` is finite and ≥ 0; nothing runs then.
    pub fn update(&mut self, dt: f32, mut run: impl FnMut(usize, f32)) -> Result<(), Error> {
        self.now += f64::from(non_negative("dt", dt)?);
        for (i, e) in self.entries.iter_mut().enumerate() {
            let due = (self.now * e.hz).floor() as u64;
            if due > e.runs {
                let periods = due - e.runs;
                e.runs = due;
                run(i, (periods as f64 / e.hz) as f32);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_hour_of_frames_runs_exactly_on_schedule() {
        let mut s = Schedule::default();
        s.add(2.0).unwrap();
        s.add(0.7).unwrap();
        let (mut runs, mut time) = ([0u64; 2], [0f64; 2]);
        for _ in 0..60 * 3600 {
            s.update(1.0 / 60.0, |i, dt| {
                runs[i] += 1;
                time[i] += f64::from(dt);
            })
            .unwrap();
        }
        assert_eq!(runs[0], 7200);
        assert_eq!(runs[1], 2520);
        assert!((time[0] - 3600.0).abs() < 1e-3);
        assert!((s.now() - 3600.0).abs() < 1e-3);
    }

    #[test]
    fn a_slow_frame_runs_once_with_all_its_periods() {
        let mut s = Schedule::default();
        let layer = s.add(4.0).unwrap();
        let mut calls = Vec::new();
        s.update(1.0, |i, dt| calls.push((i, dt))).unwrap();
        s.update(0.1, |i, dt| calls.push((i, dt))).unwrap();
        s.update(0.15, |i, dt| calls.push((i, dt))).unwrap();
        assert_eq!(calls, vec![(layer, 1.0), (layer, 0.25)]);
        assert!(s.update(-1.0, |_, _| {}).is_err());
        assert!(s.set_rate(3, 1.0).is_err() && s.add(0.0).is_err());
    }
}
