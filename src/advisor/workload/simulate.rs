//! The simulator with the worker count the advisor recommends.

use super::{MachineRates, Workload, WorkloadResult, levers, simulate_only};

/// Runs the simulator for `w` on the machine described by `m`, with the `num_workers` the
/// advisor recommends (see [`levers::recommended_workers`]).
pub fn simulate(w: &Workload, m: &MachineRates) -> WorkloadResult {
    let mut r = simulate_only(w, m);
    r.pipeline.recommended_num_workers = levers::recommended_workers(&r.workload, m);
    r
}
