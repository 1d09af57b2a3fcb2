//! Integration tests: every check here compares against something the code under test did not
//! produce: the naive generator, third-party data in `../shared/reference`, or the C baselines in
//! `../shared/bench`.

mod bounds;
mod certify;
mod cli;
mod cluster;
mod cubes;
mod engine;
mod foundation;
mod period;
mod plot;
mod sat;
mod shared;
