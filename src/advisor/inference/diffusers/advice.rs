//! What to change when a diffusion pipeline doesn't fit: diffusers' CPU offloads (model, then
//! sequential), VAE tiling, and loading the diffusers folder instead of an all-in-one file;
//! each judged again on the same machine and kept when it fits or lowers the failing need.

use crate::advisor::diffusion::{CpuOffload, DiffusionPlan};
use crate::advisor::findings::Quantity;
use crate::advisor::inference::{InferenceMemory, InferencePlan, outcome_of};
use crate::advisor::recommend::{AdviceId as R, Recommendation, Subject};

/// The candidate changes of a diffusers plan `now` that doesn't fit, on a GPU of `gpu_total`
/// bytes with `usable` bytes of host RAM.
pub fn advice(
    now: &InferenceMemory,
    gpu_total: Option<u64>,
    usable: Option<u64>,
    o: &crate::advisor::overhead::Overheads,
) -> Vec<Recommendation> {
    let p = &now.plan;
    let Some(d) = p.diffusion.as_ref() else {
        return Vec::new();
    };
    let with = |f: &dyn Fn(&mut DiffusionPlan)| {
        let mut next = p.clone();
        if let Some(n) = next.diffusion.as_mut() {
            f(n);
        }
        next
    };
    let mut out = Vec::new();
    let mut consider = |id: R, changed: InferencePlan, q: Vec<(&str, Quantity)>| {
        let Ok(next) = super::estimate::judge(&changed, gpu_total, usable, o) else {
            return;
        };
        let helps = crate::advisor::training::helps(
            &[&now.gpu, &now.cpu],
            &[&next.gpu, &next.cpu],
            next.fits,
        );
        if changed != *p && helps {
            let mut r = Recommendation::new(id, Subject::Inference, outcome_of(&next))
                .sets(crate::advisor::inference::knob_values::changes(p, &changed));
            for (name, v) in q {
                r = r.with(name, v);
            }
            out.push(r);
        }
    };
    if now.gpu.fits == Some(false) {
        // The lighter offload first: it keeps a whole component on the GPU (fast); the
        // sequential one only when the model offload isn't enough.
        let model = with(&|n| n.cpu_offload = CpuOffload::Model);
        let model_fits = super::estimate::judge(&model, gpu_total, usable, o)
            .is_ok_and(|m| m.gpu.fits == Some(true));
        if d.cpu_offload == CpuOffload::None {
            consider(
                R::DiffusersCpuOffload,
                model,
                vec![("mode", Quantity::Text("model".into()))],
            );
        }
        if d.cpu_offload != CpuOffload::Sequential && !model_fits {
            consider(
                R::DiffusersCpuOffload,
                with(&|n| n.cpu_offload = CpuOffload::Sequential),
                vec![("mode", Quantity::Text("sequential".into()))],
            );
        }
        if !d.vae_tiling {
            consider(R::VaeTiling, with(&|n| n.vae_tiling = true), vec![]);
        }
    }
    if now.cpu.fits == Some(false) && d.single_file {
        consider(R::DiffusersFolder, with(&|n| n.single_file = false), vec![]);
    }
    out
}
