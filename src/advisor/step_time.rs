//! One training step's time per GPU, for pricing a training change
//! ([`super::speed`]): the compute at the GPU's peak FLOP rate times an assumed utilisation, plus
//! the optimizer-offload traffic over PCIe and the CPU optimizer's host-memory traffic, added
//! without overlap (an upper bound on offload's cost: ZeRO-Offload overlaps the gradient copy
//! with the backward pass, Ren et al. 2021 §4.2). Sources in `docs/model.md` § "Ranking: what
//! solves first".

use super::recommend::SpeedUnknown;
use super::training::{FineTune, OffloadTarget, Strategy, TrainingPlan};

/// Model FLOPs utilisation assumed for every GPU: 40 %, an assumption below the 46.2 % PaLM
/// reached on TPU v4 (Chowdhery et al. 2022, "PaLM", Table 3) and the ~40 % Megatron-LM reports
/// for GPT models on A100s (Narayanan et al. 2021, §5.1: 163 of 312 TFLOPS at 1T parameters
/// is 52 %; smaller runs lower). It scales only the compute term.
pub const MFU: f64 = 0.40;

/// The machine's rates a step's time needs, each `None` where unknown.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepRates {
    /// One GPU's peak dense BF16 tensor rate, FLOP/s (the catalogue's datasheet figure).
    pub gpu_flops: Option<f64>,
    /// One GPU's PCIe link, bytes/s.
    pub pcie: Option<f64>,
    /// Host RAM bandwidth, bytes/s (measured Triad, else the DIMMs' peak).
    pub host: Option<f64>,
}

/// FLOPs per token of one step of `p`: forward 2N and backward 4N for full training (Kaplan et
/// al. 2020, §2.1); LoRA/QLoRA keep the frozen weights' forward (2N) and the backward through
/// them to the inputs (2N) but compute no weight gradients for them: 4N (the adapters' own
/// FLOPs, under 1 % of N, left out; Hu et al. 2021 §4.2 report the same saving as "no need to
/// calculate the gradients for the frozen parameters"). Full activation checkpointing adds a
/// second forward, 2N.
pub fn flops_per_token(p: &TrainingPlan) -> f64 {
    let n = p.params as f64;
    let base = match p.finetune {
        FineTune::Full => 6.0 * n,
        FineTune::Lora | FineTune::Qlora => 4.0 * n,
    };
    let recompute = p.activations.is_some_and(|a| a.checkpointing);
    base + if recompute { 2.0 * n } else { 0.0 }
}

/// Parameters the optimizer updates: all of them, or LoRA's share.
fn trainable(p: &TrainingPlan) -> f64 {
    match p.finetune {
        FineTune::Full => p.params as f64,
        FineTune::Lora | FineTune::Qlora => p.params as f64 * p.lora_trainable_share,
    }
}

/// Seconds one step of `p` takes on one GPU: compute (tokens per GPU per step = sequence
/// length × micro-batch, [`flops_per_token`] each, at `gpu_flops` × [`MFU`]) plus, with the
/// optimizer offloaded to the CPU (ZeRO-Offload, Ren et al. 2021 §4.1), each rank's share of
/// the trainable parameters' fp16 gradients down and fp16 parameters up, 2 + 2 bytes each, over
/// its PCIe link, and the CPU Adam step on its node: read fp32 parameters, momentum, variance
/// and gradient (16 bytes) and write the first three back (12 bytes), 28 bytes per trainable
/// parameter at host bandwidth. Parameters offloaded to the CPU (ZeRO-3) cross PCIe twice per
/// step (forward and backward), 2 bytes each, every parameter of the rank's share.
///
/// # Errors
/// - [`SpeedUnknown::TokensUnknown`]: no sequence length and micro-batch in the plan;
/// - [`SpeedUnknown::ComputeUnknown`]: the GPU has no FLOP rate in the catalogue;
/// - [`SpeedUnknown::BandwidthUnknown`]: offload to CPU without a PCIe or host bandwidth, or
///   any offload to NVMe (its bandwidth isn't modelled here);
/// - [`SpeedUnknown::InterconnectUnknown`]: ZeRO-3 over several GPUs (its all-gathers).
pub fn step_seconds(p: &TrainingPlan, r: &StepRates) -> Result<f64, SpeedUnknown> {
    let a = p.activations.ok_or(SpeedUnknown::TokensUnknown)?;
    let tokens = (a.seq_len * a.micro_batch) as f64;
    if tokens <= 0.0 {
        return Err(SpeedUnknown::TokensUnknown);
    }
    let flops = r
        .gpu_flops
        .filter(|f| *f > 0.0)
        .ok_or(SpeedUnknown::ComputeUnknown)?;
    let gpus = f64::from(p.gpus_per_node.max(1)) * f64::from(p.nodes.max(1));
    let nodes = f64::from(p.nodes.max(1));
    if p.strategy == Strategy::Zero3 && gpus > 1.0 {
        return Err(SpeedUnknown::InterconnectUnknown);
    }
    let compute = flops_per_token(p) * tokens / (flops * MFU);
    let need = |b: Option<f64>| b.filter(|b| *b > 0.0).ok_or(SpeedUnknown::BandwidthUnknown);
    let mut offload = 0.0;
    match p.offload_optimizer {
        OffloadTarget::None => {}
        OffloadTarget::Nvme => return Err(SpeedUnknown::BandwidthUnknown),
        OffloadTarget::Cpu => {
            let nt = trainable(p);
            offload += 4.0 * nt / gpus / need(r.pcie)?;
            offload += 28.0 * nt / nodes / need(r.host)?;
        }
    }
    match p.offload_param {
        OffloadTarget::None => {}
        OffloadTarget::Nvme => return Err(SpeedUnknown::BandwidthUnknown),
        OffloadTarget::Cpu => offload += 2.0 * 2.0 * p.params as f64 / gpus / need(r.pcie)?,
    }
    Ok(compute + offload)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advisor::training::ActivationInput;

    fn plan_7b() -> TrainingPlan {
        let mut p = TrainingPlan::new(7_000_000_000);
        p.activations = Some(ActivationInput {
            seq_len: 2048,
            micro_batch: 4,
            checkpointing: false,
            shape: None,
            flash_attention: true,
        });
        p
    }

    /// A 7B model, full fine-tune, 2,048 × 4 = 8,192 tokens per step on one A100-80GB (312
    /// TFLOPS dense BF16, NVIDIA's datasheet) at 40 % MFU: 6 × 7e9 × 8192 / (312e12 × 0.4) =
    /// 3.4406e14 / 1.248e14 = 2.757 s. Optimizer offloaded to the CPU over PCIe 4.0 x16 at 25
    /// GB/s effective, host RAM at 100 GB/s: 4 × 7e9 / 25e9 = 1.12 s of PCIe, 28 × 7e9 / 100e9 =
    /// 1.96 s of CPU Adam; 2.757 + 3.08 = 5.837 s, so offloading runs at 2.757 / 5.837 = 0.472
    /// of the speed. LoRA instead (1 % trainable, no offload): 4 × 7e9 × 8192 / 1.248e14 =
    /// 1.838 s, 1.5× the full fine-tune's compute-only step.
    #[test]
    fn a_7b_on_one_a100_offloaded_and_with_lora() {
        let rates = StepRates {
            gpu_flops: Some(312e12),
            pcie: Some(25e9),
            host: Some(100e9),
        };
        let base = plan_7b();
        let t0 = step_seconds(&base, &rates).unwrap();
        assert!((t0 - 2.757).abs() < 0.001, "{t0}");
        let mut off = base.clone();
        off.offload_optimizer = OffloadTarget::Cpu;
        let t1 = step_seconds(&off, &rates).unwrap();
        assert!((t1 - 5.837).abs() < 0.001, "{t1}");
        assert!((t0 / t1 - 0.472).abs() < 0.001, "{}", t0 / t1);
        let mut lora = base.clone();
        lora.finetune = FineTune::Lora;
        let t2 = step_seconds(&lora, &rates).unwrap();
        assert!((t2 - 1.838).abs() < 0.001, "{t2}");
        // LoRA with the optimizer offloaded moves 1 % of the bytes: 0.0112 + 0.0196 s more.
        lora.offload_optimizer = OffloadTarget::Cpu;
        let t3 = step_seconds(&lora, &rates).unwrap();
        assert!((t3 - t2 - 0.0308).abs() < 1e-6, "{}", t3 - t2);
    }

    #[test]
    fn what_it_cannot_know_it_says() {
        let rates = StepRates {
            gpu_flops: Some(312e12),
            pcie: None,
            host: Some(100e9),
        };
        let mut p = plan_7b();
        p.activations = None;
        assert_eq!(step_seconds(&p, &rates), Err(SpeedUnknown::TokensUnknown));
        let p = plan_7b();
        let none = StepRates::default();
        assert_eq!(step_seconds(&p, &none), Err(SpeedUnknown::ComputeUnknown));
        let mut off = plan_7b();
        off.offload_optimizer = OffloadTarget::Cpu;
        assert_eq!(
            step_seconds(&off, &rates),
            Err(SpeedUnknown::BandwidthUnknown)
        );
        let mut z3 = plan_7b();
        z3.strategy = Strategy::Zero3;
        z3.gpus_per_node = 2;
        assert_eq!(
            step_seconds(&z3, &rates),
            Err(SpeedUnknown::InterconnectUnknown)
        );
    }
}
