//! The amounts the strategy formulas work in: bytes per parameter of each state ([`Bytes`]), the
//! breakdown lines being collected ([`Lines`]) and a formula's totals ([`Totals`]). Shared by
//! the full-model formulas (`estimate`) and the LoRA/QLoRA ones (`peft`), apart from both.

use super::breakdown::{BreakdownItem, EstimateFormula, Location, StateKind};
use super::plan::{Precision, TrainingPlan};
use super::zero::StateBytes;

/// Per-parameter bytes of each state for a precision and optimizer.
#[derive(Clone, Copy, Debug)]
pub(super) struct Bytes {
    pub(super) weights: f64,
    pub(super) grads16: f64,
    pub(super) grads32: f64,
    pub(super) master: f64,
    pub(super) states: f64,
}

impl Bytes {
    pub(super) fn of(plan: &TrainingPlan) -> Bytes {
        let states = plan.optimizer.state_bytes(plan.precision);
        match plan.precision {
            Precision::Mixed16 => Bytes {
                weights: 2.0,
                grads16: 2.0,
                grads32: 4.0,
                master: 4.0,
                states,
            },
            Precision::Fp32 => Bytes {
                weights: 4.0,
                grads16: 0.0,
                grads32: 4.0,
                master: 0.0,
                states,
            },
            // Pure bf16: the gradients the optimizer steps are bf16 (`grads32` is the
            // optimizer's gradient, here 2 bytes), and there is no master copy.
            Precision::Bf16 => Bytes {
                weights: 2.0,
                grads16: 0.0,
                grads32: 2.0,
                master: 0.0,
                states,
            },
        }
    }

    /// The grouping the ZeRO formulas use; equals [`super::zero::ADAM_MIXED`] for mixed Adam.
    pub(super) fn zero(&self) -> StateBytes {
        let offloaded = self.grads32 + self.master + self.states;
        StateBytes {
            weights: self.weights,
            zero2_partitioned: self.grads16 + offloaded,
            offloaded_optimizer: offloaded,
            zero3_partitioned: self.weights + offloaded,
        }
    }

    /// The ZeRO paper's count for DDP and ZeRO-1 (Rajbhandari et al. 2020, §3/§5.1):
    /// weights + gradients (one copy, in the training precision) replicated; K = master +
    /// optimizer states.
    pub(super) fn replicated_gradients(&self) -> f64 {
        if self.grads16 > 0.0 {
            self.grads16
        } else {
            self.grads32
        }
    }
}

/// Collects breakdown lines and turns per-parameter amounts into bytes.
pub(super) struct Lines {
    pub(super) params: f64,
    pub(super) items: Vec<BreakdownItem>,
}

impl Lines {
    pub(super) fn add(&mut self, kind: StateKind, location: Location, bytes: f64) {
        if bytes > 0.0 {
            self.items.push(BreakdownItem {
                kind,
                location,
                bytes: bytes.round() as u64,
                bytes_per_param: bytes / self.params,
            });
        }
    }

    /// Adds a `Buffers` line so that `location` sums to `total`.
    pub(super) fn balance(&mut self, location: Location, total: u64) {
        let sum: u64 = self
            .items
            .iter()
            .filter(|i| i.location == location)
            .map(|i| i.bytes)
            .fold(0, u64::saturating_add);
        self.add(
            StateKind::Buffers,
            location,
            total.saturating_sub(sum) as f64,
        );
    }
}

/// What a strategy's formulas give: the totals as reported and the split the phases need.
pub(super) struct Totals {
    /// CPU RAM per node as the formula reports it (DeepSpeed's figure where it applies: the
    /// larger of its loading copy and the states kept in CPU RAM).
    pub(super) cpu: u64,
    /// Model states per GPU.
    pub(super) gpu: u64,
    /// NVMe per node.
    pub(super) nvme: u64,
    /// NVMe traffic per optimizer step.
    pub(super) traffic: Option<u64>,
    /// Whose formula.
    pub(super) formula: EstimateFormula,
    /// CPU RAM per node held while training (offloaded states, pinned swap buffers).
    pub(super) states_cpu: u64,
    /// DeepSpeed's loading term (an fp32 copy per rank × the buffer factor), when the plan uses
    /// DeepSpeed and its estimator has one.
    pub(super) deepspeed_loading: Option<f64>,
}
