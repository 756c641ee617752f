//! The unit tests' one random stream: xorshift64, small, deterministic and seedable, so a
//! failing case is the same on every run and machine.

/// Xorshift64 from `seed` (made odd, so never the stuck zero state): each call gives the
/// next 64 random bits.
pub(crate) fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut s = seed | 1;
    move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    }
}
