//! What the user asks about besides one detected machine, read from files: a scenario file (a
//! training plan and a workload) and the machines of the Lab machines view (profile files, a
//! folder of them, a Slurm inventory). Sits above the advisor, whose input types these files
//! hold, and below the views.

pub mod dataset;
pub mod fleet;
pub mod model_files;
pub mod prices;
pub mod scenario;
