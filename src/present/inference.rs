//! Words for inference memory: the plan in one line, the phases, the KV cache, what each engine
//! keeps in host RAM, and errors. Shared by the terminal, the reports and the window.

use crate::advisor::inference::llama_cpp::Frontend;
use crate::advisor::inference::{
    Engine, InferenceError, InferenceMemory, InferencePlan, WeightFormat,
};
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::profile::MachineProfile;

/// An inference input that can't be right.
pub fn error(lang: Lang, e: InferenceError) -> &'static str {
    tr(
        lang,
        match e {
            InferenceError::Zero => Msg::InferenceErrorZero,
            InferenceError::Utilization => Msg::InferenceErrorUtilization,
            InferenceError::GpuLayers => Msg::InferenceErrorGpuLayers,
            InferenceError::HostGib => Msg::InferenceErrorHostGib,
            InferenceError::KvBytes => Msg::InferenceErrorKvBytes,
            InferenceError::Experts => Msg::ModelInferenceErrorExperts,
        },
    )
}

/// The engine's name as its users write it; llama.cpp started by Ollama is Ollama's.
pub fn engine(p: &InferencePlan) -> &'static str {
    match p.engine {
        Engine::Vllm => "vLLM",
        Engine::LlamaCpp if p.llama.frontend == Frontend::Ollama => "Ollama (llama-server)",
        Engine::LlamaCpp => "llama.cpp",
        Engine::Transformers => "transformers",
        Engine::Diffusers => "diffusers",
    }
}

/// The weight format as it is named.
pub fn weights(w: WeightFormat) -> &'static str {
    match w {
        WeightFormat::Bf16 => "bf16",
        WeightFormat::Fp8 => "FP8",
        WeightFormat::Int8 => "INT8",
        WeightFormat::Int4 => "4-bit",
        WeightFormat::Q4KM => "Q4_K_M",
        WeightFormat::Q5KM => "Q5_K_M",
        WeightFormat::Q6K => "Q6_K",
    }
}

/// The released file's format where a catalogue model is served as released and its 16-bit
/// format doesn't say it (gpt-oss's MXFP4 experts: `as_released` sizes the bytes from the
/// catalogue's `dtype`); `None` otherwise.
fn released(p: &InferencePlan) -> Option<&'static str> {
    if p.weights != WeightFormat::Bf16 || p.weight_bytes.is_none() || p.gguf.is_some() {
        return None;
    }
    let m = crate::catalog::catalog().model(p.preset.as_deref()?)?;
    (m.dtype == "mxfp4").then_some("MXFP4")
}

/// "vLLM · 68.98B · bf16 · 4 GPUs · 4096 tokens × 1 sequence".
pub fn summary(lang: Lang, m: &InferenceMemory) -> String {
    if let Some(s) = super::diffusion::summary(lang, m, weights(m.plan.weights)) {
        return s;
    }
    let p = &m.plan;
    trf(
        lang,
        Msg::InferenceSummary,
        &[
            ("engine", engine(p)),
            ("params", &format::params(p.params)),
            ("weights", released(p).unwrap_or(weights(p.weights))),
            ("gpus", &p.gpus.to_string()),
            ("tokens", &p.context_len.to_string()),
            ("sequences", &p.concurrent_sequences.to_string()),
        ],
    )
}

/// The weights and the KV cache: "Weights 128 GiB; KV cache 1.25 GiB (327,680 bytes per token ×
/// 4,096 tokens × 1 sequence)".
pub fn weights_and_cache(lang: Lang, m: &InferenceMemory) -> String {
    if let Some(s) = super::diffusion::weights_and_activations(lang, m) {
        return s;
    }
    trf(
        lang,
        if m.plan.shape.kv_latent.is_some() {
            Msg::ModelKvMla
        } else {
            Msg::InferenceWeightsAndCache
        },
        &[
            ("weights", &format::gib(m.weights_bytes)),
            ("cache", &format::gib(m.kv_cache_bytes)),
            ("per_token", &format::thousands(m.kv_bytes_per_token)),
            ("tokens", &m.plan.context_len.to_string()),
            ("sequences", &m.plan.concurrent_sequences.to_string()),
        ],
    )
}

/// Where the context came from when Ollama chose it (`num_ctx` not given); `None` otherwise.
pub fn context_source(lang: Lang, m: &InferenceMemory) -> Option<String> {
    let p = &m.plan;
    (p.engine == Engine::LlamaCpp && p.llama.frontend == Frontend::Ollama && p.llama.context_auto)
        .then(|| {
            trf(
                lang,
                Msg::InferenceOllamaContext,
                &[("tokens", &format::thousands(p.context_len))],
            )
        })
}

/// What the host holds besides the runtime: vLLM's swap space and CPU offload, llama.cpp's
/// layers left in RAM, the page cache while loading; each line only when it applies.
pub fn host_lines(lang: Lang, m: &InferenceMemory) -> Vec<String> {
    let mut out = Vec::new();
    let kv_offload = crate::advisor::inference::vllm::kv_offload_host_bytes(&m.plan);
    if m.plan.engine == Engine::Vllm && kv_offload > 0 {
        out.push(trf(
            lang,
            Msg::InferenceKvOffloading,
            &[("bytes", &format::gib(kv_offload))],
        ));
    }
    if m.swap_space_bytes > 0 {
        out.push(trf(
            lang,
            Msg::InferenceSwapSpace,
            &[
                ("bytes", &format::gib(m.swap_space_bytes)),
                ("gpus", &m.plan.gpus.to_string()),
                ("per_gpu", &format!("{}", m.plan.swap_space_gib)),
            ],
        ));
    }
    if m.weights_on_cpu_bytes > 0 {
        let msg = match m.plan.engine {
            Engine::LlamaCpp if m.plan.experts_on_cpu => Msg::ModelExpertsOnCpu,
            Engine::LlamaCpp => Msg::InferenceCpuLayers,
            Engine::Transformers => Msg::InferenceCpuDeviceMap,
            Engine::Diffusers => Msg::DiffusionCpuOffload,
            Engine::Vllm => Msg::InferenceCpuOffload,
        };
        out.push(trf(
            lang,
            msg,
            &[
                ("bytes", &format::gib(m.weights_on_cpu_bytes)),
                // llama.cpp's `-ngl` counts the output layer too (`m.llama_cpp`).
                (
                    "layers",
                    &(m.plan.shape.layers + u64::from(m.llama_cpp.is_some()))
                        .saturating_sub(m.gpu_layers)
                        .to_string(),
                ),
            ],
        ));
    }
    if m.page_cache_bytes > 0 {
        out.push(trf(
            lang,
            Msg::InferencePageCache,
            &[("bytes", &format::gib(m.page_cache_bytes))],
        ));
    }
    if let Some(r) = m.gpu_reserved_bytes_per_gpu {
        out.push(trf(
            lang,
            Msg::InferenceReserved,
            &[
                ("bytes", &format::gib(r)),
                ("share", &format::percent(m.plan.gpu_memory_utilization)),
            ],
        ));
    }
    out.push(trf(
        lang,
        Msg::PhaseRuntimeInference,
        &[("runtime", &format::gib(m.runtime_bytes_per_node))],
    ));
    out
}

/// The phases table: header, loading and serving, and the peak.
pub fn phase_table(lang: Lang, m: &InferenceMemory) -> ([String; 3], Vec<[String; 3]>) {
    let header =
        [Msg::PhaseColPhase, Msg::PhaseColCpu, Msg::PhaseColGpu].map(|x| tr(lang, x).to_string());
    let mut rows: Vec<[String; 3]> = m
        .phases
        .iter()
        .map(|p| {
            [
                super::training::phase_name(lang, p.phase).to_string(),
                format::gib(p.cpu_bytes_per_node),
                format::gib(p.gpu_bytes_per_gpu),
            ]
        })
        .collect();
    // The peak row names the phase that sets each peak.
    let at = |bytes: u64, cpu: bool| match crate::advisor::training::peak_phase(&m.phases, cpu) {
        Some(p) => crate::i18n::trf(
            lang,
            Msg::PhasePeakAt,
            &[
                ("bytes", &format::gib(bytes)),
                ("phase", super::training::phase_name(lang, p)),
            ],
        ),
        None => format::gib(bytes),
    };
    rows.push([
        tr(lang, Msg::PhasePeak).to_string(),
        at(m.cpu_peak_bytes_per_node, true),
        at(m.gpu_peak_bytes_per_gpu, false),
    ]);
    (header, rows)
}

/// Processes named per GPU before the rest are counted ("and 3 more processes").
const HOLDERS_SHOWN: usize = 5;

/// The GPUs as they are now, on the machine ramvram runs on ([`MachineProfile::live`]): for each
/// discrete GPU whose use NVML read, its free memory (total − used; the figure the inference
/// check was judged against, [`crate::advisor::inference::serve_against`]) and the processes
/// holding memory on it, largest first ("6.0 GiB held by python (pid 1234)"), or that they
/// could not be listed. Empty for a profile file or a catalogue machine.
pub fn gpu_now_lines(lang: Lang, profile: &MachineProfile) -> Vec<String> {
    if !profile.live {
        return Vec::new();
    }
    let mut lines = Vec::new();
    for g in profile.gpus.iter().filter(|g| !g.unified_memory) {
        let (Some(total), Some(used)) = (g.vram_total_bytes, g.vram_used_bytes) else {
            continue;
        };
        let gpu = g.index.to_string();
        lines.push(trf(
            lang,
            Msg::GpuHeldFree,
            &[
                ("gpu", &gpu),
                ("free", &format::gib(total.saturating_sub(used))),
                ("total", &format::gib(total)),
            ],
        ));
        let Some(list) = &g.processes else {
            lines.push(trf(lang, Msg::GpuHeldUnknown, &[("gpu", &gpu)]));
            continue;
        };
        if list.is_empty() {
            lines.push(trf(lang, Msg::GpuHeldNone, &[("gpu", &gpu)]));
        }
        for p in list.iter().take(HOLDERS_SHOWN) {
            let name = p
                .name
                .clone()
                .unwrap_or_else(|| tr(lang, Msg::GpuHeldUnnamed).to_string());
            let pid = p.pid.to_string();
            lines.push(match p.used_bytes {
                Some(b) => trf(
                    lang,
                    Msg::GpuHeldBy,
                    &[("bytes", &format::gib(b)), ("name", &name), ("pid", &pid)],
                ),
                None => trf(
                    lang,
                    Msg::GpuHeldByUnknownSize,
                    &[("name", &name), ("pid", &pid)],
                ),
            });
        }
        if list.len() > HOLDERS_SHOWN {
            let count = (list.len() - HOLDERS_SHOWN).to_string();
            lines.push(trf(lang, Msg::GpuHeldMore, &[("count", &count)]));
        }
    }
    lines
}
