//! The advisor: pure functions from a machine profile to an [`Assessment`]. No I/O, no UI, no
//! clock, no globals: the same profile always gives the same assessment. Every constant names
//! its source in its docstring and in `docs/model.md`.

pub mod advice_id;
pub mod bandwidth;
pub mod bandwidth_views;
pub mod buying;
pub mod capacity;
pub mod check;
pub mod defaults;
pub mod diagnose;
pub mod diffusion;
pub mod finder;
pub mod findings;
pub mod fleet;
pub mod fleet_machine;
pub mod headline;
pub mod headroom;
pub mod impact;
pub mod inference;
pub mod knobs;
pub mod lm_studio;
pub mod native;
pub mod overhead;
pub mod phase;
pub mod pinned;
pub mod pools;
pub mod ratio;
pub mod recommend;
pub mod redacted;
pub mod rules;
pub mod scenario;
pub mod set_up;
pub mod speed;
pub mod standing;
pub mod step_time;
pub mod training;
pub mod unified;
pub mod verdict;
pub mod whatif;
pub mod windows;
pub mod workload;
pub mod wsl;

use serde::{Deserialize, Serialize};

pub use advice_id::AdviceId;
pub use capacity::{RamSizes, VramTotals};
pub use findings::{Finding, FindingId, Quantity, Severity};
pub use ratio::{Ratio, Tier};
pub use rules::{RuleId, RuleResult, RuleStatus};
pub use scenario::Scenario;
pub use verdict::Verdict;

use crate::profile::MachineProfile;

/// Format version of the assessment JSON (`advise --json`, reports). 3: one advice id space
/// ([`AdviceId`]) for `findings[].recommendations` and `recommendations[].id`, with renames
/// (`shm-size` → `grow-shm`, …; docs/profile.md "Advice ids"; the old ids load as aliases).
/// 2: the `scenario` it was
/// computed from; one pipeline (`bandwidth.pipeline`, with `narrowest_stage`), no top-level
/// `pipeline`; one provenance vocabulary (`profile::Provenance`; pipeline stages' `source` plus
/// `theoretical`, the installed RAM's `installed_provenance` and `installed_basis` for
/// `installed_source`, a training estimate's `formula` for `source`) and [`RamSizes`] for
/// `EffectiveRam` (`memory.mem_total_bytes` for `physical_bytes`, `usable_bytes` for
/// `effective_bytes`). Nothing reads an assessment back.
pub const ASSESSMENT_SCHEMA_VERSION: u32 = 3;

/// Everything the views show about one machine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Assessment {
    /// [`ASSESSMENT_SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The machine assessed.
    pub profile: MachineProfile,
    /// What was assessed besides the machine, as given: the training plan, the workload and the
    /// model to serve. A valid scenario file on its own (`advise --json | jq .scenario`).
    pub scenario: Scenario,
    /// RAM's sizes: `MemTotal`, usable, installed (with its provenance) and the sizing figure
    /// the ratio and rules use (`memory` in JSON).
    pub memory: RamSizes,
    /// VRAM totals.
    pub vram: VramTotals,
    /// RAM:VRAM ratios and tier.
    pub ratio: Ratio,
    /// The headline.
    pub verdict: Verdict,
    /// Published rules, judged.
    pub rules: Vec<RuleResult>,
    /// Findings, most severe first.
    pub findings: Vec<Finding>,
    /// What to buy or change, with reasons.
    pub procurement: buying::procurement::Procurement,
    /// The training-memory planner's result, when a plan was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub training_memory: Option<training::TrainingMemory>,
    /// Why the training plan could not be estimated, when it couldn't.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub training_error: Option<training::PlanError>,
    /// Inference memory, when a model to serve was given (`inference_memory` in JSON).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inference_memory: Option<inference::InferenceMemory>,
    /// Why the inference plan could not be estimated, when it couldn't.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inference_error: Option<inference::InferenceError>,
    /// The workload simulator's result (`workload`, `memory_budget`, `pipeline`, …), when a
    /// workload was given.
    #[serde(default, flatten, skip_serializing_if = "Option::is_none")]
    pub workload: Option<workload::WorkloadResult>,
    /// What to change, ranked cheapest first ([`recommend::rank`]), each with the model's result
    /// after the change.
    #[serde(default)]
    pub recommendations: Vec<recommend::Recommendation>,
    /// The worst thing found ([`headline::headline`]): the same in every view.
    #[serde(default)]
    pub headline: headline::Headline,
    /// Memory bandwidth, the seed's bandwidth rule, PCIe and the pipeline (always present in
    /// assessments by this build; `None` in files written before the pipeline had stated
    /// defaults for every stage).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bandwidth: Option<bandwidth::Bandwidth>,
    /// The machine's memory pools, each with its consumers, its limits and its verdict
    /// ([`pools::pools`]); empty in files written before them.
    #[serde(default)]
    pub pools: Vec<pools::Pool>,
}

impl Assessment {
    /// The one pipeline of the assessment (`bandwidth.pipeline`) when a workload was simulated
    /// on it: what every view reads for the stages' samples/s, the narrowest stage and the
    /// predicted GPU utilisation. `None` without a workload (or in a file without `bandwidth`).
    pub fn pipeline(&self) -> Option<&workload::view::PipelineView> {
        self.bandwidth
            .as_ref()
            .map(|b| &b.pipeline)
            .filter(|p| p.with_workload)
    }
}

/// Assesses one machine with a [`Scenario`] (a training plan, a workload, a model to serve;
/// [`Scenario::NONE`] for the machine on its own): the one entry point every view uses. Each
/// recommendation that changes the machine (`/dev/shm`, WSL's cap, RAM) is re-assessed on the
/// changed machine, every limit at once, and carries that result. Pure: the same profile and
/// scenario give the same [`Assessment`].
pub fn assess(profile: &MachineProfile, scenario: &Scenario) -> Assessment {
    let mut a = assess_once(profile, scenario);
    for r in &mut a.recommendations {
        // Changes of the machine alone: those that change a plan too were judged with the
        // machine change by their plan's own re-run.
        let Some(change) = r.machine_change.filter(|c| !c.is_empty()) else {
            continue;
        };
        if !r.changes_only_the_machine() {
            continue;
        }
        let changed = assess_once(&whatif::apply(&a.profile, &change), scenario);
        if let Some(mut o) = subject_outcome(&changed, r.subject) {
            // A change the machine can't take (WSL's cap beyond what Windows has) stays "does
            // not fit" whatever the re-run says.
            if r.result.fits == Some(false) {
                o.fits = Some(false);
            }
            r.result = o;
        }
    }
    // The plans' own levers judge each side alone; the pools judge every consumer together. A
    // plan change its planner calls fitting is re-assessed with its settings, and a pool of
    // its subject that still overflows takes the "fits" back.
    if a.pools.iter().any(|p| p.fits.is_some()) {
        for r in &mut a.recommendations {
            if r.result.fits != Some(true) || r.changes_only_the_machine() {
                continue;
            }
            let Some(changed_scenario) = with_settings(scenario, &r.settings) else {
                continue;
            };
            let machine = r
                .machine_change
                .map_or_else(|| a.profile.clone(), |c| whatif::apply(&a.profile, &c));
            let changed = assess_once(&machine, &changed_scenario);
            if pools::subject_fits(&changed.pools, r.subject) == Some(false) {
                r.result.fits = Some(false);
            }
        }
    }
    // Each change that makes its plan fit names the phase of the plan as it stands that it
    // fixes (the one that breaks now).
    let training_breaks = a
        .training_memory
        .as_ref()
        .map_or((None, None), training::failing_phase);
    let inference_breaks = a
        .inference_memory
        .as_ref()
        .map_or((None, None), inference::failing_phase);
    for r in &mut a.recommendations {
        (r.result.fixes_phase, r.result.fixes_gpu_phase) = match (r.result.fits, r.subject) {
            (Some(true), recommend::Subject::Training) => training_breaks,
            (Some(true), recommend::Subject::Inference) => inference_breaks,
            _ => (None, None),
        };
    }
    // Each change priced in speed and written in the user's tools, then ranked by the rule
    // (`recommend::rank`), which reads the price.
    let now = speed::AsItStands {
        profile: &a.profile,
        memory: &a.memory,
        vram: &a.vram,
        bandwidth: a.bandwidth.as_ref(),
        training: a.scenario.training.as_ref(),
        inference: a.inference_memory.as_ref(),
        workload: a.workload.as_ref(),
    };
    speed::price_all(&mut a.recommendations, &now);
    native::write_all(&mut a.recommendations, &now);
    a.recommendations = recommend::rank(std::mem::take(&mut a.recommendations));
    a.procurement.cheaper_fixes =
        buying::procurement::cheaper_fixes(&a.procurement.work, &a.recommendations);
    a
}

/// `scenario` with a recommendation's plan settings applied (its machine's are applied to the
/// profile); `None` when one can't be set on the plan it belongs to.
fn with_settings(scenario: &Scenario, settings: &[knobs::Setting]) -> Option<Scenario> {
    use knobs::Plan;
    let mut s = scenario.clone();
    for st in settings {
        let set = match knobs::knob(st.knob).plan {
            Plan::Machine => true,
            Plan::Workload => workload::knob_values::set(s.workload.as_mut()?, st.knob, st.value),
            Plan::Training => training::knob_values::set(s.training.as_mut()?, st.knob, st.value),
            Plan::Inference => {
                inference::knob_values::set(s.inference.as_mut()?, st.knob, st.value)
            }
            Plan::Model => match (s.training.as_mut(), s.inference.as_mut()) {
                (Some(t), _) => training::knob_values::set(t, st.knob, st.value),
                (None, Some(i)) => inference::knob_values::set(i, st.knob, st.value),
                (None, None) => false,
            },
        };
        if !set {
            return None;
        }
    }
    Some(s)
}

/// What `a` says about `subject`, as a recommendation's result: every limit of that plan with
/// its headroom. `None` for the machine itself (its own items keep their result).
fn subject_outcome(a: &Assessment, subject: recommend::Subject) -> Option<recommend::Outcome> {
    use recommend::Subject as S;
    match subject {
        S::Training => a.training_memory.as_ref().map(training::outcome_of),
        S::Inference => a.inference_memory.as_ref().map(inference::outcome_of),
        S::Workload => a.workload.as_ref().map(|w| {
            let mut o = workload::levers::outcome(w, a.profile.memory.shm_bytes);
            o.fits = pools::with_pools(o.fits, pools::subject_fits(&a.pools, S::Workload), None)
                .filter(|_| o.fits != Some(false));
            o
        }),
        S::Machine => None,
    }
}

/// One assessment, recommendations as the plans' own re-runs computed them.
fn assess_once(given: &MachineProfile, scenario: &Scenario) -> Assessment {
    let recognised = wsl::recognised(given);
    let profile = recognised.as_ref().unwrap_or(given);
    let memory = capacity::ram_sizes(profile);
    let vram = capacity::vram_totals(profile);
    let ratio = ratio::ratios(&memory, &vram);
    let mut recommendations = Vec::new();
    let (inference_memory, inference_error) = match &scenario.inference {
        Some(plan) => match inference::serve_against(plan, profile, &memory, &vram) {
            Ok((m, recs)) => {
                recommendations.extend(recs);
                (Some(m), None)
            }
            Err(e) => (None, Some(e)),
        },
        None => (None, None),
    };
    let bw = bandwidth::bandwidth(profile, &vram);
    // The simulator's view of this machine with the dataset on `storage`: from the bandwidth
    // view's memory, PCIe and measured folders (not its pipeline, which is made from these).
    let rates_with = |storage: Option<crate::profile::DiskKind>| {
        workload::MachineRates::from_profile(
            profile,
            &memory,
            storage,
            &bw.memory,
            &bw.pcie,
            &bw.storage,
        )
    };
    let rates = rates_with(scenario.workload.as_ref().and_then(|w| w.storage));
    let workload = scenario
        .workload
        .as_ref()
        .map(|w| workload::simulate(w, &rates));
    if let Some(w) = &workload {
        // The machine's rates with the dataset on a kind of disk it has (a local copy).
        let rates_on = |kind: crate::profile::DiskKind| {
            profile
                .disks
                .iter()
                .any(|d| d.kind == kind)
                .then(|| rates_with(Some(kind)))
        };
        recommendations.extend(workload::levers::recommendations(
            w,
            &rates,
            profile.memory.shm_bytes,
            &rates_on,
        ));
    }
    // The training plan, after the loaders: with a validation loader, its evaluation pause is
    // one of the plan's phases (`WorkloadResult::evaluation_pause_extra_bytes`).
    let pause_extra = workload
        .as_ref()
        .and_then(workload::WorkloadResult::evaluation_pause_extra_bytes);
    let (training_memory, training_error) = match &scenario.training {
        Some(plan) => match training::plan_against(plan, profile, &memory, &vram, pause_extra) {
            Ok((t, recs)) => {
                // First in the list, as before the plans' order changed (ties keep it).
                recommendations.splice(0..0, recs);
                (Some(t), None)
            }
            Err(e) => (None, Some(e)),
        },
        None => (None, None),
    };
    // The Bandwidth page's pipeline is the simulator's, in bytes/s as well as samples/s.
    let bandwidth = Some(bandwidth::Bandwidth {
        pipeline: workload::view::pipeline_view(&rates, workload.as_ref()),
        ..bw
    });
    // The pools: every plan's consumers against every limit; the plans' verdicts read them.
    let mut training_memory = training_memory;
    let mut inference_memory = inference_memory;
    let pools = pools::pools(
        profile,
        &memory,
        &pools::Plans {
            training: training_memory.as_ref(),
            inference: inference_memory.as_ref(),
            workload: workload.as_ref(),
        },
    );
    if let Some(t) = training_memory.as_mut() {
        let by_pools = pools::subject_fits(&pools, recommend::Subject::Training);
        t.fits = pools::with_pools(t.fits, by_pools, t.nvme.map(|n| n.fits));
    }
    if let Some(m) = inference_memory.as_mut() {
        let by_pools = pools::subject_fits(&pools, recommend::Subject::Inference);
        m.fits = pools::with_pools(m.fits, by_pools, None);
    }
    recommendations.extend(pools::levers::levers(profile, &pools));
    let cx = finder::Context {
        profile,
        ram: &memory,
        vram: &vram,
        ratio: &ratio,
        training: training_memory.as_ref(),
        workload: workload.as_ref(),
        inference: inference_memory.as_ref(),
        recommendations: &recommendations,
        pools: &pools,
    };
    let mut findings = finder::findings(&cx);
    findings.extend(wsl::findings(profile, &memory, &vram));
    findings.extend(pools::findings::findings(&pools));
    if let Some(b) = &bandwidth {
        findings.extend(bandwidth::findings(b));
    }
    // The one order of problems (severity, then what each costs); stable within a key.
    impact::rank(&mut findings);
    let below_largest = findings
        .iter()
        .any(|f| f.id == FindingId::RamBelowLargestGpu);
    let verdict = if profile.gpus.is_empty() {
        Verdict::NoGpu
    } else if vram.discrete_gpus == 0 {
        Verdict::UnifiedMemory
    } else {
        match ratio.tier {
            _ if below_largest => Verdict::RamBelowVram,
            Some(Tier::Insufficient) => Verdict::RamBelowVram,
            Some(Tier::Baseline) => Verdict::Baseline,
            Some(Tier::Offload) => Verdict::OffloadReady,
            Some(Tier::LargeModel) => Verdict::LargeModelReady,
            None => Verdict::CannotJudge,
        }
    };
    let recommendations = recommend::rank(
        recommendations
            .into_iter()
            .map(|r| buying::ram_advice::complete_add_ram(profile, &memory, r))
            .collect(),
    );
    let set_up = set_up::SetUp {
        training: training_memory.as_ref(),
        inference: inference_memory.as_ref(),
        workload: workload.as_ref(),
        unified: vram.discrete_gpus == 0 && vram.unified_gpus > 0,
        pools: &pools,
    };
    let mut procurement = buying::procurement::procurement(
        profile,
        &memory,
        &vram,
        &findings,
        set_up.needs(memory.usable_share()),
    );
    procurement.cheaper_fixes =
        buying::procurement::cheaper_fixes(&procurement.work, &recommendations);
    let headline = headline::headline(
        verdict,
        &findings,
        inference_memory.as_ref().and_then(|m| m.fits),
    );
    Assessment {
        headline,
        schema_version: ASSESSMENT_SCHEMA_VERSION,
        profile: profile.clone(),
        scenario: scenario.clone(),
        memory,
        vram,
        ratio,
        verdict,
        rules: rules::judge(&memory, &vram),
        procurement,
        findings,
        training_memory,
        training_error,
        inference_memory,
        inference_error,
        workload,
        recommendations,
        bandwidth,
        pools,
    }
}
