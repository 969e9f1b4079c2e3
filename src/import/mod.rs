//! Importers: machine profiles built from what other tools already know about a lab's machines
//! (a Slurm inventory, a Prometheus server's exporters), apart from detection on this machine and
//! from the catalogue.

pub mod prometheus;
pub mod slurm;
