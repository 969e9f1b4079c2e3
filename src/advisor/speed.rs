//! What each recommendation costs in speed, as a number: `relative_speed` (1.0 the plan as it
//! stands, 0.25 four times slower, above 1 faster), from the model the advisor already has, or
//! the reason it can't be known. One function per number:
//! - serving: [`seconds_per_token`], the bytes each generated token reads on each device at
//!   that device's bandwidth (GPU memory from the catalogue, host RAM measured or its DIMMs'
//!   peak, PCIe for weights copied to the GPU for every token);
//! - data loading: the simulator's samples/s delivered (utilisation against the same demand);
//! - training: activation checkpointing's recomputation (0.75); a change of the plan's offload,
//!   strategy or fine-tuning method, one step's time before ÷ after
//!   ([`super::step_time::step_seconds`]: compute at the catalogue's peak BF16 rate, offload
//!   traffic over PCIe, the CPU optimizer at host bandwidth), or why it can't be known.
//!
//! Sources in `docs/model.md` § "What each change costs in speed".

use super::capacity::{RamSizes, VramTotals};
use super::inference::{Engine, InferenceMemory};
use super::recommend::{AdviceId, Recommendation, SpeedSource, SpeedUnknown, Subject};

/// A recommendation's speed: the figure and its source, or why it can't be known.
pub type Priced = Result<(f64, SpeedSource), SpeedUnknown>;

/// Bandwidths the serving model reads, bytes/s; `None` where unknown.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Bandwidths {
    /// One GPU's memory bandwidth (the catalogue's figure for the first discrete GPU).
    pub gpu: Option<f64>,
    /// Host RAM: the measured STREAM Triad, else the DIMMs' theoretical peak.
    pub host: Option<f64>,
    /// One GPU's PCIe link, host → device (its effective rate, else its maximum).
    pub pcie: Option<f64>,
}

/// The machine and the plans as they stand, which each recommendation is priced against (and
/// written in the user's tools against, [`crate::advisor::native`]): the assessment's parts.
#[derive(Clone, Copy)]
pub struct AsItStands<'a> {
    /// The machine.
    pub profile: &'a crate::profile::MachineProfile,
    /// Its RAM.
    pub memory: &'a RamSizes,
    /// Its VRAM.
    pub vram: &'a VramTotals,
    /// Its bandwidths (memory, PCIe).
    pub bandwidth: Option<&'a super::bandwidth::Bandwidth>,
    /// The training plan given.
    pub training: Option<&'a super::training::TrainingPlan>,
    /// The served model, judged.
    pub inference: Option<&'a InferenceMemory>,
    /// The workload, simulated.
    pub workload: Option<&'a super::workload::WorkloadResult>,
}

/// `field` of the catalogue's row for the first discrete GPU in `a` that has a row and a value
/// there (matched by name and memory size, else by name); `None` when none has.
fn first_catalogued_gpu(
    a: &AsItStands<'_>,
    field: impl Fn(&crate::catalog::GpuModel) -> Option<f64>,
) -> Option<f64> {
    let cat = crate::catalog::catalog();
    a.profile
        .gpus
        .iter()
        .filter(|g| !g.unified_memory)
        .find_map(|g| {
            let name = g.name.as_deref()?;
            field(
                cat.gpu_detected(name, g.vram_total_bytes)
                    .or_else(|| cat.gpu(name))?,
            )
        })
}

/// The bandwidths of the machine in `a`.
pub fn bandwidths(a: &AsItStands<'_>) -> Bandwidths {
    let gpu = first_catalogued_gpu(a, |m| m.memory_bandwidth_gb_s).map(|gb| gb * 1e9);
    let (host, pcie) = match a.bandwidth {
        Some(b) => (
            b.memory
                .measured_triad_bytes_per_s
                .or(b.memory.theoretical_bytes_per_s),
            b.pcie
                .first()
                .and_then(|p| p.effective_bytes_per_s.or(p.max_bytes_per_s)),
        ),
        None => (None, None),
    };
    Bandwidths { gpu, host, pcie }
}

/// Seconds one generated token takes in serving `m`, from the bytes it reads: every weight once
/// (a mixture of experts: every expert, an upper bound) and one sequence's KV cache at the full
/// context. Weights and cache on the GPUs read at GPU memory bandwidth — split over the GPUs
/// for vLLM's tensor parallelism, one GPU after another for llama.cpp's and transformers' layer
/// split; weights in host RAM read by the CPU at host bandwidth (llama.cpp computes its CPU
/// layers there) or copied over PCIe to the GPU for every token (vLLM `cpu_offload_gb`,
/// transformers `device_map`). Decoding one token at a time is memory-bound (Pope et al. 2022,
/// "Efficiently Scaling Transformer Inference", §2; llama.cpp's own rule of thumb).
///
/// # Errors
/// [`SpeedUnknown::BandwidthUnknown`] when a device that holds bytes has no bandwidth.
pub fn seconds_per_token(m: &InferenceMemory, bw: &Bandwidths) -> Result<f64, SpeedUnknown> {
    let p = &m.plan;
    let on_cpu = m.weights_on_cpu_bytes.min(m.weights_bytes) as f64;
    let on_gpu =
        (m.weights_bytes as f64 - on_cpu) + m.kv_bytes_per_token as f64 * p.context_len as f64;
    let gpus = f64::from(p.gpus.max(1));
    let need = |b: Option<f64>| b.filter(|b| *b > 0.0).ok_or(SpeedUnknown::BandwidthUnknown);
    let gpu_time = match p.engine {
        Engine::Vllm => on_gpu / (gpus * need(bw.gpu)?),
        Engine::LlamaCpp | Engine::Transformers | Engine::Diffusers => on_gpu / need(bw.gpu)?,
    };
    let host_time = if on_cpu <= 0.0 {
        0.0
    } else {
        match p.engine {
            Engine::LlamaCpp => on_cpu / need(bw.host)?,
            Engine::Vllm => on_cpu / (gpus * need(bw.pcie)?),
            Engine::Transformers | Engine::Diffusers => on_cpu / need(bw.pcie)?,
        }
    };
    Ok(gpu_time + host_time)
}

/// Changes that leave what each step or token does as it is: how the model is loaded, an OS or
/// container limit, more memory or a larger machine of the same kind, the index's layout.
fn unchanged(id: AdviceId) -> bool {
    use AdviceId as R;
    matches!(
        id,
        R::LoadOnRank0
            | R::MetaDeviceInit
            | R::ZeroInit
            | R::LowCpuMemUsage
            | R::UseSafetensors
            | R::ReshardCheckpoint
            | R::AddSwap
            | R::GrowPageFile
            | R::WslRaiseMemory
            | R::GrowShm
            | R::RaiseLimit
            | R::AddRam
            | R::LargerInstance
            | R::OtherInstance
            | R::NewMachine
            | R::RaiseVmMemory
            | R::LargerRuntime
            | R::RaiseGpuWiredLimit
            | R::IndexAsArrays
            | R::ReduceSwapSpace
    )
}

/// A training change's speed, by what it does to a step.
fn training(id: AdviceId) -> Priced {
    use AdviceId as R;
    match id {
        _ if unchanged(id) => Ok((1.0, SpeedSource::Unchanged)),
        // 6N FLOPs per token become 8N: the forward (2N) is computed twice.
        R::GradientCheckpointing => Ok((0.75, SpeedSource::Recompute)),
        R::Zero3InsteadOfZero2 => Err(SpeedUnknown::InterconnectUnknown),
        _ => Err(SpeedUnknown::ComputeUnknown),
    }
}

/// The rates a training step's time needs ([`super::step_time::StepRates`]): the first discrete
/// GPU's datasheet BF16 rate from the catalogue, its PCIe link and host RAM as for serving.
pub fn step_rates(a: &AsItStands<'_>) -> super::step_time::StepRates {
    let gpu_flops = first_catalogued_gpu(a, |m| m.bf16_dense_tflops).map(|t| t * 1e12);
    let bw = bandwidths(a);
    super::step_time::StepRates {
        gpu_flops,
        pcie: bw.pcie,
        host: bw.host,
    }
}

/// A training change that sets the plan's knobs (offload, strategy, fine-tuning method): one
/// step's time as the plan stands ÷ with the settings applied. `None` when the change sets no
/// knob of the plan (priced by [`training`] instead) or there is no plan.
fn training_step(a: &AsItStands<'_>, r: &Recommendation) -> Option<Priced> {
    let plan = a.training?;
    if r.settings.is_empty() || r.id == AdviceId::GradientCheckpointing || unchanged(r.id) {
        return None;
    }
    let mut after = plan.clone();
    for s in &r.settings {
        if !super::training::knob_values::set(&mut after, s.knob, s.value) {
            return None;
        }
    }
    let rates = step_rates(a);
    let price = || {
        let before = super::step_time::step_seconds(plan, &rates)?;
        let now = super::step_time::step_seconds(&after, &rates)?;
        if now <= 0.0 {
            return Err(SpeedUnknown::ComputeUnknown);
        }
        Ok((before / now, SpeedSource::StepTime))
    };
    Some(price())
}

/// The speed of recommendation `r` against `a` (the plan as it stands), by its subject. A pair
/// (`also`) multiplies its parts' figures; one part unknown makes it unknown. A training change
/// that sets the plan's knobs is priced by its step time ([`training_step`]), its pair's
/// settings included.
pub fn price(a: &AsItStands<'_>, r: &Recommendation) -> Priced {
    match r.subject {
        Subject::Training => {
            if let Some(p) = training_step(a, r) {
                return p;
            }
            let mut total = training(r.id)?;
            for id in &r.also {
                let (f, _) = training(*id)?;
                total.0 *= f;
            }
            Ok(total)
        }
        Subject::Inference if unchanged(r.id) => Ok((1.0, SpeedSource::Unchanged)),
        Subject::Inference => inference(a, r),
        Subject::Workload => workload(a, r),
        Subject::Machine => Ok((1.0, SpeedSource::Unchanged)),
    }
}

/// Serving: seconds per token as the plan stands ÷ with the change.
fn inference(a: &AsItStands<'_>, r: &Recommendation) -> Priced {
    let m = a.inference.ok_or(SpeedUnknown::BandwidthUnknown)?;
    // A diffusion step is compute-bound (convolutions and attention over every latent token),
    // not a token's read of the weights.
    if m.plan.engine == Engine::Diffusers {
        return Err(SpeedUnknown::ComputeUnknown);
    }
    let mut plan = m.plan.clone();
    for s in &r.settings {
        super::inference::knob_values::set(&mut plan, s.knob, s.value);
    }
    let after = super::inference::judged(&plan, a.profile, a.memory, a.vram)
        .map_err(|_| SpeedUnknown::BandwidthUnknown)?;
    let bw = bandwidths(a);
    let (before, after) = (seconds_per_token(m, &bw)?, seconds_per_token(&after, &bw)?);
    if after <= 0.0 {
        return Err(SpeedUnknown::BandwidthUnknown);
    }
    Ok((before / after, SpeedSource::Bandwidth))
}

/// Data loading: samples/s delivered with the change ÷ as it stands (the predicted utilisation
/// against the same demand), when the demand is known.
fn workload(a: &AsItStands<'_>, r: &Recommendation) -> Priced {
    let now = a
        .workload
        .filter(|w| super::workload::presets::demand_given(&w.workload))
        .and_then(|w| w.pipeline.predicted_gpu_utilization);
    match (now, r.result.predicted_gpu_utilization) {
        (Some(b), Some(after)) if b > 0.0 => Ok((after / b, SpeedSource::Pipeline)),
        _ if unchanged(r.id) => Ok((1.0, SpeedSource::Unchanged)),
        _ => Err(SpeedUnknown::DemandUnknown),
    }
}

/// Writes each recommendation's price into its result.
pub fn price_all(recs: &mut [Recommendation], a: &AsItStands<'_>) {
    for r in recs.iter_mut() {
        let p = price(a, r);
        let o = &mut r.result;
        match p {
            Ok((s, src)) => {
                o.relative_speed = Some(s);
                o.speed_source = Some(src);
                o.speed_unknown = None;
            }
            Err(why) => {
                o.relative_speed = None;
                o.speed_source = None;
                o.speed_unknown = Some(why);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advisor::inference::{InferencePlan, WeightFormat};

    /// One GPU at 1,008 GB/s (an RTX 4090's published figure), host RAM at 80 GB/s: a 7B
    /// model's 14 GB of bf16 weights read per token is 14e9 / 1008e9 = 13.9 ms; with half the
    /// weights in RAM under llama.cpp, 7e9 / 1008e9 + 7e9 / 80e9 = 6.9 + 87.5 = 94.4 ms: 0.147 of
    /// the speed.
    #[test]
    fn half_the_layers_in_ram_is_the_host_bandwidth_against_the_gpus() {
        let shape = crate::advisor::training::TransformerShape {
            hidden: 4096,
            layers: 32,
            heads: Some(32),
            kv_heads: Some(8),
            ..Default::default()
        };
        let plan = InferencePlan {
            context_len: 1,
            ..InferencePlan::new(Engine::LlamaCpp, 7_000_000_000, shape, WeightFormat::Bf16)
        };
        let profile = crate::profile::MachineProfile::unknown();
        let base = super::super::inference::judged(
            &plan,
            &profile,
            &crate::advisor::capacity::ram_sizes(&profile),
            &crate::advisor::capacity::vram_totals(&profile),
        )
        .unwrap();
        let m = |on_cpu: u64| InferenceMemory {
            weights_bytes: 14_000_000_000,
            weights_on_cpu_bytes: on_cpu,
            kv_bytes_per_token: 0,
            ..base.clone()
        };
        let bw = Bandwidths {
            gpu: Some(1008e9),
            host: Some(80e9),
            pcie: Some(25e9),
        };
        let all = seconds_per_token(&m(0), &bw).unwrap();
        let half = seconds_per_token(&m(7_000_000_000), &bw).unwrap();
        assert!((all - 14e9 / 1008e9).abs() < 1e-9);
        assert!((half - (7e9 / 1008e9 + 7e9 / 80e9)).abs() < 1e-9);
        assert!((all / half - 0.147).abs() < 0.001, "{}", all / half);
        // Unknown host bandwidth with bytes in RAM: can't say.
        let no_host = Bandwidths { host: None, ..bw };
        assert_eq!(
            seconds_per_token(&m(7_000_000_000), &no_host),
            Err(SpeedUnknown::BandwidthUnknown)
        );
    }

    #[test]
    fn checkpointing_is_three_quarters_and_offload_needs_the_compute_time() {
        assert_eq!(
            training(AdviceId::GradientCheckpointing),
            Ok((0.75, SpeedSource::Recompute))
        );
        assert_eq!(
            training(AdviceId::OffloadOptimizerToCpu),
            Err(SpeedUnknown::ComputeUnknown)
        );
        assert_eq!(
            training(AdviceId::LoadOnRank0),
            Ok((1.0, SpeedSource::Unchanged))
        );
    }
}
