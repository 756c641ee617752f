//! [`Fixed`]: an array of exactly `N` numbers.

use serde::{Deserialize, Serialize};

/// An array of exactly `N` numbers (serde's own arrays let extra elements through).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Vec<f32>", into = "Vec<f32>")]
pub struct Fixed<const N: usize>(pub [f32; N]);

impl<const N: usize> TryFrom<Vec<f32>> for Fixed<N> {
    type Error = String;
    fn try_from(v: Vec<f32>) -> Result<Self, String> {
        v.try_into().map(Self).map_err(|v: Vec<f32>| format!("expected {N} numbers, got {}", v.len()))
    }
}

impl<const N: usize> From<Fixed<N>> for Vec<f32> {
    fn from(f: Fixed<N>) -> Self {
        f.0.to_vec()
    }
}
