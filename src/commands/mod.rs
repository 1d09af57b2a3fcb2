//! What each command of the binary does, one module per group: argument checks, calls into the
//! library, and what is printed. The arguments themselves are declared in `main.rs`.

pub(crate) mod bench;
pub(crate) mod bounds;
pub(crate) mod cubes;
pub(crate) mod plot;
pub(crate) mod question;
pub(crate) mod sat;
pub(crate) mod slurm;
pub(crate) mod values;
