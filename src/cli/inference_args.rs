//! `advise` flags for inference memory. The model is `--preset` or `--params` with
//! `--layers`/`--hidden-size`/`--heads` (the training planner's model flags); `--inference`
//! says it is served, not trained.

use clap::{Args, ValueEnum};

use super::llama_args::{CacheTypeArg, FlashArg};
use super::training_args::TrainingArgs;
pub use super::weights_args::WeightsArg;
use super::weights_args::{gguf_format, weight_format};
use crate::advisor::defaults;
use crate::advisor::inference::llama_cpp::{FlashAttn, Frontend};
use crate::advisor::inference::{CheckpointFiles, Engine, InferencePlan, WeightFormat};
use crate::advisor::knobs::{self, KnobId as K};
use crate::advisor::training::TransformerShape;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::profile::MachineProfile;

/// Flags describing a model to serve.
#[derive(Debug, Default, Args)]
#[command(next_help_heading = "Inference memory")]
pub struct InferenceArgs {
    /// Serve the model (--preset or --params) with this engine instead of training it.
    #[arg(long, value_enum)]
    pub inference: Option<EngineArg>,
    /// Weight format served (default bf16).
    #[arg(long, value_enum)]
    pub weights: Option<WeightsArg>,
    /// Tokens per sequence (vLLM --max-model-len, llama.cpp -c, Ollama num_ctx; default 4096).
    #[arg(long, alias = "num-ctx")]
    pub context_len: Option<u64>,
    /// Sequences served at once, each with a full-length KV cache (default 1).
    #[arg(long, alias = "parallel", alias = "num-parallel")]
    pub concurrent_sequences: Option<u64>,
    /// Key/value heads (grouped-query attention; default: as many as the heads).
    #[arg(long)]
    pub kv_heads: Option<u64>,
    /// KV-cache element type (default: the model's 16 bits).
    #[arg(long, value_enum)]
    pub kv_cache_dtype: Option<KvArg>,
    /// vLLM --gpu-memory-utilization (default 1.0: vLLM 0.34 on CUDA, less a 1 GiB margin).
    #[arg(long)]
    pub gpu_memory_utilization: Option<f64>,
    /// vLLM release, 0.N (default 0.34); before 0.34 vLLM refuses to start unless the free
    /// memory holds its share, and an unset share is 0.92.
    #[arg(long, value_parser = crate::advisor::inference::vllm::parse_release)]
    pub vllm_version: Option<crate::advisor::inference::vllm::VllmRelease>,
    /// vLLM --swap-space, GiB of pinned host RAM per GPU: V0-era engines (default 0: vLLM 0.34
    /// has none).
    #[arg(long)]
    pub swap_space: Option<f64>,
    /// vLLM --cpu-offload-gb, GiB of each GPU's weights in host RAM (default 0).
    #[arg(long)]
    pub cpu_offload_gb: Option<f64>,
    /// vLLM --kv-cache-memory-bytes, the KV cache per GPU with units: 8GiB (default: sized by
    /// vLLM from the GPU's memory).
    #[arg(long, value_parser = crate::parse::parse_size)]
    pub kv_cache_memory_bytes: Option<u64>,
    /// vLLM --kv-offloading-size, GiB of host RAM for CPU KV offloading, all GPUs together
    /// (default 0: off).
    #[arg(long)]
    pub kv_offloading_size: Option<f64>,
    /// Layers on the GPUs (default: all): llama.cpp -ngl, or transformers' device_map with
    /// max_memory keeping the rest in CPU RAM.
    #[arg(long, alias = "ngl", alias = "gpu-layers", alias = "num-gpu")]
    pub n_gpu_layers: Option<u64>,
    /// llama.cpp -ot exps=CPU: keep a mixture-of-experts model's routed experts in host RAM.
    #[arg(long, alias = "cpu-moe")]
    pub experts_on_cpu: bool,
    /// llama.cpp --n-cpu-moe N: the routed experts of the first N layers in host RAM.
    #[arg(long, alias = "ncmoe")]
    pub n_cpu_moe: Option<u64>,
    /// llama.cpp --cache-type-k (default f16).
    #[arg(long, value_enum, alias = "ctk")]
    pub cache_type_k: Option<CacheTypeArg>,
    /// llama.cpp --cache-type-v (default f16).
    #[arg(long, value_enum, alias = "ctv")]
    pub cache_type_v: Option<CacheTypeArg>,
    /// llama.cpp --flash-attn on|off|auto (default auto).
    #[arg(long, value_enum, alias = "fa")]
    pub flash_attn: Option<FlashArg>,
    /// llama.cpp --ubatch-size (default 512).
    #[arg(long, alias = "ub")]
    pub ubatch_size: Option<u64>,
    /// llama.cpp --tensor-split: each GPU's share, comma-separated (3,1).
    #[arg(long, alias = "ts", value_delimiter = ',')]
    pub tensor_split: Vec<f64>,
    /// The checkpoint's files: safetensors (memory-mapped) or a pickle read by torch.load.
    #[arg(long, value_enum)]
    pub checkpoint_files: Option<FilesArg>,
    /// The largest checkpoint file (shard) on disk, with units: 9.94GB (default: 5GB for
    /// safetensors, one file for a pickle).
    #[arg(long, value_parser = crate::parse::parse_size)]
    pub checkpoint_shard_size: Option<u64>,
    /// The diffusion flags (`--inference diffusers`).
    #[command(flatten)]
    pub diffusion: super::diffusion_args::DiffusionArgs,
}

/// `--inference` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    /// vLLM.
    Vllm,
    /// llama.cpp.
    #[value(name = "llama.cpp", alias = "llama-cpp")]
    LlamaCpp,
    /// Ollama: llama.cpp's llama-server, started with Ollama's settings.
    Ollama,
    /// Hugging Face transformers.
    Transformers,
    /// Hugging Face diffusers.
    Diffusers,
}

/// `--kv-cache-dtype` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum KvArg {
    /// The model's 16 bits.
    Auto,
    /// 8 bits.
    Fp8,
}

/// `--checkpoint-files` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FilesArg {
    /// safetensors or GGUF, memory-mapped.
    Safetensors,
    /// A pickle file read whole by torch.load.
    Pickle,
}

/// What a vLLM flag needs.
const VLLM: &str = "--inference vllm";
/// What `--n-gpu-layers` needs.
const LAYERED: &str = "--inference llama.cpp / ollama / transformers";
/// What a diffusion flag needs.
const DIFFUSERS: &str = "--inference diffusers";
/// What `--experts-on-cpu` needs.
const LLAMA_CPP: &str = "--inference llama.cpp / ollama";

impl InferenceArgs {
    /// The first inference flag given, for "only applies with --inference".
    fn any_flag(&self) -> Option<(&'static str, &'static str)> {
        let all = "--inference";
        [
            (self.weights.is_some(), K::Weights, all),
            (self.context_len.is_some(), K::ContextLen, all),
            (
                self.concurrent_sequences.is_some(),
                K::ConcurrentSequences,
                all,
            ),
            (self.kv_heads.is_some(), K::KvHeads, all),
            (self.kv_cache_dtype.is_some(), K::KvCacheDtype, all),
            (self.checkpoint_files.is_some(), K::CheckpointFiles, all),
            (
                self.checkpoint_shard_size.is_some(),
                K::CheckpointShardSize,
                all,
            ),
            (
                self.gpu_memory_utilization.is_some(),
                K::GpuMemoryUtilization,
                VLLM,
            ),
            (self.vllm_version.is_some(), K::VllmVersion, VLLM),
            (self.swap_space.is_some(), K::SwapSpace, VLLM),
            (self.cpu_offload_gb.is_some(), K::CpuOffloadGb, VLLM),
            (
                self.kv_cache_memory_bytes.is_some(),
                K::KvCacheMemoryBytes,
                VLLM,
            ),
            (self.kv_offloading_size.is_some(), K::KvOffloadingSize, VLLM),
            (self.n_gpu_layers.is_some(), K::NGpuLayers, LAYERED),
            (self.experts_on_cpu, K::ExpertsOnCpu, LLAMA_CPP),
            (self.n_cpu_moe.is_some(), K::NCpuMoe, LLAMA_CPP),
            (self.cache_type_k.is_some(), K::CacheTypeK, LLAMA_CPP),
            (self.cache_type_v.is_some(), K::CacheTypeV, LLAMA_CPP),
            (self.flash_attn.is_some(), K::FlashAttn, LLAMA_CPP),
            (self.ubatch_size.is_some(), K::UbatchSize, LLAMA_CPP),
        ]
        .into_iter()
        .chain(self.diffusion_flags().map(|(set, id)| (set, id, DIFFUSERS)))
        .find_map(|(set, id, needs)| set.then_some((knobs::flag(id), needs)))
    }

    /// The diffusion flags and whether each is given.
    fn diffusion_flags(&self) -> impl Iterator<Item = (bool, K)> {
        self.diffusion.given()
    }

    /// A flag for another engine than the one given.
    fn wrong_engine(&self, engine: Engine) -> Option<(&'static str, &'static str)> {
        if engine != Engine::Diffusers {
            if let Some((_, id)) = self.diffusion_flags().find(|(set, _)| *set) {
                return Some((knobs::flag(id), DIFFUSERS));
            }
        }
        let vllm = [
            (
                self.gpu_memory_utilization.is_some(),
                K::GpuMemoryUtilization,
            ),
            (self.vllm_version.is_some(), K::VllmVersion),
            (self.swap_space.is_some(), K::SwapSpace),
            (self.cpu_offload_gb.is_some(), K::CpuOffloadGb),
            (self.kv_cache_memory_bytes.is_some(), K::KvCacheMemoryBytes),
            (self.kv_offloading_size.is_some(), K::KvOffloadingSize),
        ];
        if engine != Engine::Vllm {
            if let Some((_, id)) = vllm.iter().find(|(set, _)| *set) {
                return Some((knobs::flag(*id), VLLM));
            }
        }
        // Layers on the GPUs: llama.cpp's `-ngl`, or transformers' `device_map` with
        // `max_memory` keeping the rest in CPU RAM.
        if engine == Engine::Vllm && self.n_gpu_layers.is_some() {
            return Some((knobs::flag(K::NGpuLayers), LAYERED));
        }
        let llama = [
            (self.experts_on_cpu, K::ExpertsOnCpu),
            (self.n_cpu_moe.is_some(), K::NCpuMoe),
            (self.cache_type_k.is_some(), K::CacheTypeK),
            (self.cache_type_v.is_some(), K::CacheTypeV),
            (self.flash_attn.is_some(), K::FlashAttn),
            (self.ubatch_size.is_some(), K::UbatchSize),
        ];
        if engine != Engine::LlamaCpp {
            if let Some((_, id)) = llama.iter().find(|(set, _)| *set) {
                return Some((knobs::flag(*id), LLAMA_CPP));
            }
        }
        None
    }

    /// A diffusers plan: the language-model engines' flags refused, the weights and files
    /// given here, the rest from the diffusion flags.
    fn diffusers_plan(&self, lang: Lang, training: &TrainingArgs) -> Result<InferencePlan, String> {
        let llm_only = [
            (self.context_len.is_some(), K::ContextLen),
            (self.concurrent_sequences.is_some(), K::ConcurrentSequences),
            (self.kv_heads.is_some(), K::KvHeads),
            (self.kv_cache_dtype.is_some(), K::KvCacheDtype),
            (self.n_gpu_layers.is_some(), K::NGpuLayers),
        ];
        if let Some((_, id)) = llm_only.iter().find(|(set, _)| *set) {
            return Err(trf(
                lang,
                Msg::FlagOnlyWith,
                &[
                    ("flag", knobs::flag(*id)),
                    ("needs", "--inference vllm / llama.cpp / transformers"),
                ],
            ));
        }
        if let Some(flag) = training
            .training_only_flag()
            .filter(|f| *f != knobs::flag(K::CheckpointDtype))
        {
            return Err(trf(lang, Msg::FlagInferenceNotWith, &[("flag", flag)]));
        }
        let files = match self.checkpoint_files {
            Some(FilesArg::Pickle) => CheckpointFiles::Pickle,
            _ => CheckpointFiles::Safetensors,
        };
        let mut plan = self
            .diffusion
            .plan(lang, training, self.weights.map(weight_format))?;
        plan.files = files;
        plan.checkpoint_dtype = training.checkpoint_dtype_given();
        plan.checkpoint_shard_bytes = self.checkpoint_shard_size;
        Ok(plan)
    }

    /// The plan these flags describe with the model of `training`'s flags; `None` without
    /// `--inference`.
    ///
    /// # Errors
    /// A flag that can't apply (an inference flag without `--inference`, a vLLM flag for
    /// llama.cpp, a training-only flag with `--inference`), or no transformer shape.
    pub fn plan(
        &self,
        lang: Lang,
        training: &TrainingArgs,
        profile: &MachineProfile,
    ) -> Result<Option<InferencePlan>, String> {
        let only = |(flag, needs): (&str, &str)| {
            trf(lang, Msg::FlagOnlyWith, &[("flag", flag), ("needs", needs)])
        };
        let Some(engine) = self.inference else {
            return match self.any_flag() {
                Some(f) => Err(only(f)),
                None => Ok(None),
            };
        };
        let frontend = match engine {
            EngineArg::Ollama => Frontend::Ollama,
            _ => Frontend::LlamaServer,
        };
        let engine = match engine {
            EngineArg::Vllm => Engine::Vllm,
            EngineArg::LlamaCpp | EngineArg::Ollama => Engine::LlamaCpp,
            EngineArg::Transformers => Engine::Transformers,
            EngineArg::Diffusers => Engine::Diffusers,
        };
        if let Some(f) = self.wrong_engine(engine) {
            return Err(only(f));
        }
        if engine == Engine::Diffusers {
            return self.diffusers_plan(lang, training).map(Some);
        }
        // The checkpoint's dtype on disk is what loading reads, for serving as for training.
        if let Some(flag) = training
            .training_only_flag()
            .filter(|f| *f != knobs::flag(K::CheckpointDtype))
        {
            return Err(trf(lang, Msg::FlagInferenceNotWith, &[("flag", flag)]));
        }
        let preset = training.chosen_preset();
        let read = training.model_files();
        let params = training
            .params
            .or(preset.map(|p| p.params))
            .or(read.and_then(|r| r.params()));
        let shape = match (training.layers, training.hidden_size) {
            (Some(layers), Some(hidden)) => Some(TransformerShape {
                hidden,
                layers,
                heads: training.heads,
                kv_heads: self.kv_heads,
                ..TransformerShape::default()
            }),
            _ => preset
                .and_then(|p| p.shape)
                .or_else(|| read.and_then(|r| r.shape()))
                .map(|s| TransformerShape {
                    heads: training.heads.or(s.heads),
                    kv_heads: self.kv_heads.or(s.kv_heads),
                    // A head count typed over the model's: its head width follows from it.
                    head_dim: s.head_dim.filter(|_| training.heads.is_none()),
                    ..s
                }),
        };
        let (Some(params), Some(shape)) = (params, shape) else {
            return Err(tr(lang, Msg::FlagInferenceNeedsShape).to_string());
        };
        let weights = match self.weights {
            None => read.and_then(gguf_format).unwrap_or(WeightFormat::Bf16),
            Some(w) => weight_format(w),
        };
        let mut plan = InferencePlan::new(engine, params, shape, weights);
        plan.preset = preset.map(|p| p.id.clone());
        plan.gpus = training
            .gpus_per_node
            .unwrap_or_else(|| defaults::gpus_per_node(profile));
        if let Some(c) = self.context_len {
            plan.context_len = c;
        }
        if let Some(n) = self.concurrent_sequences {
            plan.concurrent_sequences = n;
        }
        if self.kv_cache_dtype == Some(KvArg::Fp8) {
            plan.kv_bytes = 1;
        }
        if let Some(r) = self.vllm_version {
            plan.vllm_version = r;
            plan.gpu_memory_utilization = r.default_utilization();
        }
        if let Some(u) = self.gpu_memory_utilization {
            plan.gpu_memory_utilization = u;
        }
        if let Some(s) = self.swap_space {
            plan.swap_space_gib = s;
        }
        if let Some(c) = self.cpu_offload_gb {
            plan.cpu_offload_gib = c;
        }
        if let Some(b) = self.kv_cache_memory_bytes {
            plan.kv_cache_memory_bytes = Some(b);
        }
        if let Some(g) = self.kv_offloading_size {
            plan.kv_offloading_gib = g;
        }
        plan.gpu_layers = self.n_gpu_layers;
        let model_shape = preset
            .and_then(|p| crate::catalog::catalog().model(&p.id))
            .and_then(|m| m.shape.as_ref())
            .or_else(|| {
                read.and_then(|r| r.config.as_ref())
                    .and_then(|c| c.shape.as_ref())
            });
        let given = self.weights.is_some() || training.params.is_some() || read.is_some();
        super::weights_args::as_released(&mut plan, preset.filter(|_| !given).map(|p| &*p.id));
        plan.expert_params = model_shape
            .and_then(crate::catalog::model_shape::ModelShape::routed_expert_params)
            .filter(|_| training.params.is_none());
        plan.experts_on_cpu = self.experts_on_cpu;
        let l = &mut plan.llama;
        l.n_cpu_moe = self.n_cpu_moe.unwrap_or(0);
        if let Some(t) = self.cache_type_k {
            l.cache_type_k = t.cache_type();
        }
        if let Some(t) = self.cache_type_v {
            l.cache_type_v = t.cache_type();
        }
        l.flash_attn = match self.flash_attn {
            None | Some(FlashArg::Auto) => FlashAttn::Auto,
            Some(FlashArg::On) => FlashAttn::On,
            Some(FlashArg::Off) => FlashAttn::Off,
        };
        l.ubatch = self.ubatch_size;
        l.tensor_split = self.tensor_split.clone();
        // A GGUF served by llama.cpp: llama.cpp's own rules read the file's layout.
        if engine == Engine::LlamaCpp {
            plan.gguf = read
                .and_then(|r| r.gguf.as_ref())
                .map(|g| Box::new(g.llama.clone()))
                .filter(|m| !m.bytes.layers.is_empty());
            // No context given: llama.cpp's fit chooses it for a GGUF, Ollama its own default
            // for any model (the advisor resolves it against the machine's GPUs).
            plan.llama.frontend = frontend;
            plan.llama.context_auto =
                self.context_len.is_none() && (plan.gguf.is_some() || frontend == Frontend::Ollama);
        }
        let pickles_only =
            read.is_some_and(|r| r.weight_files.is_empty() && !r.pickle_files.is_empty());
        if self.checkpoint_files == Some(FilesArg::Pickle)
            || (self.checkpoint_files.is_none() && pickles_only)
        {
            plan.files = CheckpointFiles::Pickle;
        }
        // What --model PATH read stands in for the flags not given: the dtype on disk and the
        // largest shard (safetensors or pickle) of a Hugging Face folder.
        let hf = read.filter(|r| r.gguf.is_none());
        plan.checkpoint_dtype = training
            .checkpoint_dtype_given()
            .or(hf.and_then(super::training_args::disk_dtype));
        plan.checkpoint_shard_bytes = self.checkpoint_shard_size.or(hf.and_then(|r| {
            r.weight_files
                .iter()
                .chain(&r.pickle_files)
                .map(|f| f.bytes)
                .max()
        }));
        Ok(Some(plan))
    }
}
