//! Recommendations: what to change when a plan, a workload or the machine falls short, each one
//! computed by re-running the advisor's own model with that change applied (every limit at
//! once, with headroom), priced in speed (`relative_speed`, [`crate::advisor::speed`]), written
//! in the user's own tools ([`Native`], [`crate::advisor::native`]) and ranked by [`rank`]: what
//! solves first, what keeps the user's plan before what changes it, then speed, then effort,
//! money as its own path. Each carries the command-line arguments that apply it
//! ([`Recommendation::apply`]). The words are in the locale files (`advice.<id>.title`,
//! `advice.cost.<id>`); this module holds the types.

pub use crate::advisor::advice_id::{AdviceId, GivesUp, RecKind};
pub use rank::{SLOW, Tier, changes_the_plan, rank, tier};

mod rank;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::findings::Quantity;

/// A limit a plan is checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Limit {
    /// One GPU's memory.
    Vram,
    /// Host RAM (or the cgroup / WSL cap, or the unified pool).
    Ram,
    /// `/dev/shm`.
    Shm,
    /// NVMe space for offload.
    Nvme,
}

impl Limit {
    /// The limit's id as the JSON writes it (`"vram"`, `"shm"`).
    pub fn id(self) -> &'static str {
        match self {
            Limit::Vram => "vram",
            Limit::Ram => "ram",
            Limit::Shm => "shm",
            Limit::Nvme => "nvme",
        }
    }

    /// The limit an id names ([`Limit::id`]).
    pub fn from_id(id: &str) -> Option<Limit> {
        [Limit::Vram, Limit::Ram, Limit::Shm, Limit::Nvme]
            .into_iter()
            .find(|l| l.id() == id)
    }
}

/// What the model says once a change is applied. Each field is `None` when it doesn't apply
/// to the change's subject (a workload has no per-GPU peak).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// Peak CPU RAM per node, bytes (training, inference).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_peak_bytes_per_node: Option<u64>,
    /// Peak VRAM per GPU, bytes (training, inference).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_peak_bytes_per_gpu: Option<u64>,
    /// The data-loading working set, bytes (workloads).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub working_set_bytes: Option<u64>,
    /// Predicted GPU utilisation, 0–1 (workloads).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicted_gpu_utilization: Option<f64>,
    /// `/dev/shm` the DataLoader needs, bytes (workloads with worker processes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shm_needed_bytes: Option<u64>,
    /// The smallest headroom over every limit checked (available − needed, bytes; negative when
    /// short), `None` when no limit could be checked.
    #[serde(default)]
    pub headroom_bytes: Option<i64>,
    /// The limit with that smallest headroom.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tightest: Option<Limit>,
    /// That headroom as a share of the limit (for ranking: the most headroom first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headroom_share: Option<f64>,
    /// Every limit holds with its margin after the change (`None`: can't tell).
    pub fits: Option<bool>,
    /// The phase that sets the CPU RAM peak after the change (training and inference plans):
    /// what a swap file that comes with the change takes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_phase: Option<crate::advisor::phase::PhaseId>,
    /// The phase of the plan as it stands that breaks and that the change makes fit
    /// ([`crate::advisor::training::failing_phase`], [`crate::advisor::inference::failing_phase`]);
    /// `None` when the change doesn't make its plan fit or its subject has no phases.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixes_phase: Option<crate::advisor::phase::PhaseId>,
    /// When VRAM breaks too, at another phase than RAM: that phase, which the change also makes
    /// fit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixes_gpu_phase: Option<crate::advisor::phase::PhaseId>,
    /// How fast the plan runs after the change, against the plan as it stands: 1.0 the same,
    /// 0.25 four times slower, above 1 faster ([`crate::advisor::speed`]). `None` when it can't
    /// be known (`speed_unknown` says why).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relative_speed: Option<f64>,
    /// Where `relative_speed` comes from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed_source: Option<SpeedSource>,
    /// Why `relative_speed` can't be known, when it can't.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed_unknown: Option<SpeedUnknown>,
    /// No critical finding of the plan's own remains after the change (a GPU starved below
    /// half its demand, [`crate::advisor::workload::STARVED_CRITICAL`]); `None` when there is
    /// nothing to check (no demand known).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub critical_cleared: Option<bool>,
}

/// Where a recommendation's `relative_speed` comes from (`docs/model.md` § "What each change
/// costs in speed").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SpeedSource {
    /// The change doesn't touch what each step or token does (how the model is loaded, an OS
    /// limit, more memory): 1.0.
    Unchanged,
    /// The data-loading simulator: samples/s delivered after ÷ before (predicted utilisation
    /// against the same demand).
    Pipeline,
    /// Bytes each generated token reads, at each device's bandwidth (GPU memory from the
    /// catalogue, host RAM measured or its DIMMs' peak, PCIe for weights copied per token).
    Bandwidth,
    /// Activation checkpointing recomputes the forward pass: a step of 6N FLOPs per token
    /// becomes 8N (Kaplan et al. 2020, §2.1: forward 2N, backward 4N), 0.75.
    Recompute,
    /// One step's time per GPU before ÷ after ([`crate::advisor::step_time`]): compute at the
    /// catalogue's peak BF16 rate × an assumed 40 % utilisation, plus optimizer/parameter
    /// offload traffic over PCIe and CPU Adam's host-memory traffic, not overlapped.
    StepTime,
}

/// Why a recommendation's `relative_speed` can't be known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SpeedUnknown {
    /// The GPUs' demand (samples/s) isn't known: neither given nor a preset for the kind of
    /// model, so how much faster loading helps can't be told.
    DemandUnknown,
    /// The step's compute time needs the GPU's FLOP rate, which the catalogue doesn't hold;
    /// the offload traffic alone doesn't say what share of the step it is.
    ComputeUnknown,
    /// A bandwidth the model needs (the GPU's memory, host RAM, PCIe) isn't known.
    BandwidthUnknown,
    /// The change trades traffic between GPUs (ZeRO-3's all-gathers) the model doesn't
    /// describe.
    InterconnectUnknown,
    /// The tokens per step (sequence length × micro-batch) aren't in the plan, so the step's
    /// compute time can't be set against its offload traffic.
    TokensUnknown,
}

/// A tool a recommendation can be written in ([`Native`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tool {
    /// A DeepSpeed config fragment (JSON).
    Deepspeed,
    /// Hugging Face Accelerate's config keys (`accelerate config` YAML).
    Accelerate,
    /// PyTorch FSDP's keywords.
    Fsdp,
    /// PyTorch or transformers keywords (`DataLoader(...)`, `from_pretrained(...)`).
    Pytorch,
    /// `llama-server` flags.
    #[serde(rename = "llama.cpp")]
    LlamaCpp,
    /// Ollama (Modelfile `PARAMETER`s or the server's environment).
    Ollama,
    /// LM Studio's `lms load` flags (lmstudio.ai/docs/cli/load).
    #[serde(rename = "lm-studio")]
    LmStudio,
    /// `vllm serve` flags.
    Vllm,
    /// `docker run` flags.
    Docker,
    /// A Kubernetes pod spec fragment.
    Kubernetes,
    /// `#SBATCH` lines.
    Slurm,
    /// `sysctl` settings.
    Sysctl,
    /// `%UserProfile%\.wslconfig`.
    Wslconfig,
    /// Windows' page-file setting.
    Windows,
}

impl Tool {
    /// The tool's name as the JSON writes it and every view shows it (`llama.cpp`).
    pub fn name(self) -> &'static str {
        match self {
            Tool::Deepspeed => "deepspeed",
            Tool::Accelerate => "accelerate",
            Tool::Fsdp => "fsdp",
            Tool::Pytorch => "pytorch",
            Tool::LlamaCpp => "llama.cpp",
            Tool::Ollama => "ollama",
            Tool::LmStudio => "lm-studio",
            Tool::Vllm => "vllm",
            Tool::Docker => "docker",
            Tool::Kubernetes => "kubernetes",
            Tool::Slurm => "slurm",
            Tool::Sysctl => "sysctl",
            Tool::Wslconfig => "wslconfig",
            Tool::Windows => "windows",
        }
    }
}

/// A recommendation written in the user's own tool: what to paste into a DeepSpeed config, the
/// `llama-server` flags, the `DataLoader(...)` keywords ([`crate::advisor::native`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Native {
    /// The tool.
    pub tool: Tool,
    /// The text in that tool's own syntax (may span lines).
    pub text: String,
}

impl Outcome {
    /// Records the headroom of the checks given, keeping the one with the smallest share of its
    /// limit.
    pub fn with_headroom(
        mut self,
        checks: &[(Limit, &crate::advisor::check::CapacityCheck)],
    ) -> Self {
        for (limit, c) in checks {
            let (Some(h), Some(a)) = (c.headroom_bytes, c.available_bytes) else {
                continue;
            };
            let share = h as f64 / a.max(1) as f64;
            if self.headroom_share.is_none_or(|s| share < s) {
                self.headroom_bytes = Some(h);
                self.headroom_share = Some(share);
                self.tightest = Some(*limit);
            }
        }
        self
    }
}

/// What a recommendation is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Subject {
    /// The training plan.
    Training,
    /// The inference plan.
    Inference,
    /// The data-loading workload.
    Workload,
    /// The machine itself.
    Machine,
}

/// One recommendation with its computed result. Equal when every field is, `settings`
/// included: the JSON has no `settings`, so reading one back rebuilds them from `apply`
/// ([`crate::advisor::knobs::settings_of`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "Stored")]
pub struct Recommendation {
    /// Stable id.
    pub id: AdviceId,
    /// What it costs.
    pub kind: RecKind,
    /// What it is about.
    pub subject: Subject,
    /// The values it sets, by name (`num_workers`, `ram_bytes`, `instance_type`, …); the
    /// locale texts use the same names as placeholders.
    pub changes: BTreeMap<String, Quantity>,
    /// The model re-run with the change.
    pub result: Outcome,
    /// What the change costs the user ([`gives_up`]).
    pub gives_up: GivesUp,
    /// The command-line arguments that, added to the same `advise` command, give the plan with
    /// this change (`["--num-workers", "4", "--shm-size", "1g"]`); empty when the change is
    /// outside what a flag can say (buy modules, move to another instance). Written from
    /// [`Recommendation::settings`] through the knob table ([`crate::advisor::knobs::args`]).
    #[serde(default)]
    pub apply: Vec<String>,
    /// The change in the user's own tools ([`Native`]): a DeepSpeed fragment, `llama-server`
    /// flags, `DataLoader(...)` keywords, `docker run --shm-size`; written from `settings` and
    /// the plan ([`crate::advisor::native`]). Empty where no tool has a setting for it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub native: Vec<Native>,
    /// The knobs this change sets, with their values: the plan's, then the machine's. What
    /// code reads to tell what a recommendation changes (`apply` is their text). Not in the
    /// JSON, which has `apply`; reading it back parses them from `apply`.
    #[serde(skip)]
    pub settings: Vec<crate::advisor::knobs::Setting>,
    /// The machine-level change this recommendation makes, which the assessment re-assesses on
    /// the changed profile ([`crate::advisor::whatif`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine_change: Option<crate::advisor::whatif::MachineChange>,
    /// Further changes this one is paired with (none changes enough alone): their values are
    /// under `also.<name>` in `changes`, and `apply` sets them all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<AdviceId>,
}

impl Recommendation {
    /// A recommendation with no changes recorded yet, of its id's kind ([`AdviceId::kind`])
    /// and cost ([`AdviceId::gives_up`]).
    pub fn new(id: AdviceId, subject: Subject, result: Outcome) -> Self {
        Recommendation {
            id,
            kind: id.kind(),
            subject,
            changes: BTreeMap::new(),
            result,
            gives_up: id.gives_up(),
            apply: Vec::new(),
            native: Vec::new(),
            settings: Vec::new(),
            machine_change: None,
            also: Vec::new(),
        }
    }

    /// Counts the change as of another kind than its id's: a training setting that needs a swap
    /// file for its loading peak is an OS change (`training::advice`), and a pair is listed
    /// under its main part's kind (`training::pairs`).
    pub fn with_kind(mut self, kind: RecKind) -> Self {
        self.kind = kind;
        self
    }

    /// Records a machine-level change, its settings and the arguments that apply it.
    pub fn on_machine(mut self, c: crate::advisor::whatif::MachineChange) -> Self {
        let settings = crate::advisor::knobs::machine_settings(&c);
        self.apply.extend(crate::advisor::knobs::args(&settings));
        self.settings.extend(settings);
        self.machine_change = Some(c);
        self
    }

    /// Records the plan's settings this change makes, and the arguments that apply them.
    pub fn sets(mut self, settings: Vec<crate::advisor::knobs::Setting>) -> Self {
        self.settings.splice(0..0, settings);
        self.apply = crate::advisor::knobs::args(&self.settings);
        self
    }

    /// True when the change sets only the machine's knobs (`/dev/shm`, WSL's cap, RAM), no
    /// plan's.
    pub fn changes_only_the_machine(&self) -> bool {
        self.settings.iter().all(|s| {
            crate::advisor::knobs::knob(s.knob).plan == crate::advisor::knobs::Plan::Machine
        })
    }

    /// Records the new value of knob `id` under its field's name (`num_workers`), the name the
    /// locale texts' placeholders use.
    pub fn with_knob(self, id: crate::advisor::knobs::KnobId, q: Quantity) -> Self {
        let k = crate::advisor::knobs::knob(id);
        let name = k.fields.first().copied().unwrap_or(k.flag);
        self.with(name, q)
    }

    /// Records one changed value.
    pub fn with(mut self, name: &str, q: Quantity) -> Self {
        self.changes.insert(name.to_string(), q);
        self
    }
}

/// A recommendation as its JSON holds it: every field but the typed `settings`, which reading
/// it back rebuilds from `apply` ([`crate::advisor::knobs::settings_of`]), so an assessment read
/// back from its JSON equals the one written.
/// [`Recommendation`]'s JSON fields.
#[derive(Deserialize)]
struct Stored {
    id: AdviceId,
    kind: RecKind,
    subject: Subject,
    changes: BTreeMap<String, Quantity>,
    result: Outcome,
    gives_up: GivesUp,
    #[serde(default)]
    apply: Vec<String>,
    #[serde(default)]
    native: Vec<Native>,
    #[serde(default)]
    machine_change: Option<crate::advisor::whatif::MachineChange>,
    #[serde(default)]
    also: Vec<AdviceId>,
}

impl From<Stored> for Recommendation {
    fn from(s: Stored) -> Self {
        Recommendation {
            settings: crate::advisor::knobs::settings_of(&s.apply),
            id: s.id,
            kind: s.kind,
            subject: s.subject,
            changes: s.changes,
            result: s.result,
            gives_up: s.gives_up,
            apply: s.apply,
            native: s.native,
            machine_change: s.machine_change,
            also: s.also,
        }
    }
}

#[cfg(test)]
mod stored_tests {
    use super::*;
    use crate::advisor::knobs::{KnobId, KnobValue, Setting};

    /// Two recommendations that differ only in their typed settings are not equal (the
    /// hand-written equality before issue 34 skipped them), and one read back from its JSON
    /// equals the one written: the settings come back from `apply`.
    #[test]
    fn settings_count_in_equality_and_come_back_from_apply() {
        let set = |n: u64, shm: u64| {
            Recommendation::new(
                AdviceId::IncreaseNumWorkers,
                Subject::Workload,
                Outcome::default(),
            )
            .sets(vec![Setting {
                knob: KnobId::NumWorkers,
                value: KnobValue::Whole(n),
            }])
            .on_machine(crate::advisor::whatif::MachineChange {
                shm_bytes: Some(shm),
                ..Default::default()
            })
        };
        let a = set(8, 4 << 30);
        let mut b = a.clone();
        b.settings[0].value = KnobValue::Whole(9);
        assert_ne!(a, b);
        assert_eq!(a.apply, ["--num-workers", "8", "--shm-size", "4GiB"]);
        let back: Recommendation =
            serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap();
        assert_eq!(back.settings, a.settings);
        assert_eq!(back, a);
    }
}
