//! Benchmarks of `influence`, kept out of the library and the command: the harness behind
//! `influence bench` ([`kernels`]) and `influence bench --field` ([`field`]), and the
//! straightforward [`reference`](mod@reference) kernels that it and the criterion benches
//! (`benches/`) measure the library against. The command parses and checks the arguments
//! and prints; everything measured is here.
// The baselines' flat step is compiled for wider instruction sets and called after a CPU
// check (`baseline.rs`): that module alone allows `unsafe`.
#![deny(unsafe_code)]
#![deny(missing_docs)]

pub mod baseline;
pub mod field;
pub mod frame;
pub mod kernel_goals;
pub mod kernels;
pub mod plain_astar;
pub mod plain_top_n;
pub mod reference;
pub mod rng;
