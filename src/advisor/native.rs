//! Each recommendation in the user's own tools (`recommendations[].native`): the DeepSpeed
//! config fragment (JSON that parses), FSDP and Accelerate keys, the `DataLoader(...)` and
//! `from_pretrained(...)` keywords, `llama-server`, `vllm serve` and Ollama settings, `docker run
//! --shm-size` and a Kubernetes `emptyDir`, `.wslconfig`, Windows' page file. Written once, from
//! the recommendation's typed settings ([`Recommendation::settings`]) and the plan it changes
//! (the engine served, the training strategy); the views only print them. Each tool's spelling
//! is cited at its knob: DeepSpeed's config JSON (deepspeed.ai/docs/config-json), PyTorch's
//! `torch.utils.data.DataLoader` and FSDP signatures, transformers' `from_pretrained`,
//! llama.cpp's `tools/server/README.md`, vLLM's engine arguments, Ollama's Modelfile
//! `PARAMETER`s, Docker's `docker run` reference, Microsoft's WSL configuration page.

use serde_json::{Map, Value, json};

use super::inference::Engine;
use super::knobs::{KnobId as K, KnobValue as V, Setting, size_arg};
use super::recommend::{AdviceId, Native, Recommendation, Subject, Tool};
use super::speed::AsItStands;
use super::training::{Strategy, TrainingPlan};

/// Bytes as Docker and Kubernetes take a size: whole GiB rounded up (`6g`, `6Gi`).
fn gib(bytes: u64) -> u64 {
    bytes.div_ceil(1 << 30).max(1)
}

/// The texts of `r` in `a` (the plan as it stands), one per tool, in the order of [`Tool`].
pub fn native(a: &AsItStands<'_>, r: &Recommendation) -> Vec<Native> {
    let mut w = Writer::default();
    let training = training_after(a, r);
    let engine = a.inference.map(|m| m.plan.engine);
    for s in &r.settings {
        match r.subject {
            Subject::Inference => w.inference(engine, s, a, r),
            Subject::Training => w.training(training.as_ref(), s),
            _ => {}
        }
        w.workload(s);
        w.machine(s);
    }
    w.by_id(r);
    w.finish()
}

/// The training plan with `r`'s settings, when `r` is about training.
fn training_after(a: &AsItStands<'_>, r: &Recommendation) -> Option<TrainingPlan> {
    let mut p = a.training.cloned()?;
    for s in &r.settings {
        super::training::knob_values::set(&mut p, s.knob, s.value);
    }
    Some(p)
}

/// The pieces of each tool's text, collected setting by setting.
#[derive(Default)]
struct Writer {
    deepspeed: Map<String, Value>,
    zero: Map<String, Value>,
    dataloader: Vec<String>,
    from_pretrained: Vec<String>,
    pytorch: Vec<String>,
    fsdp: Vec<String>,
    accelerate: Vec<String>,
    llama: Vec<String>,
    ollama: Vec<String>,
    lm_studio: Vec<String>,
    vllm: Vec<String>,
    docker: Vec<String>,
    kubernetes: Vec<String>,
    wslconfig: Vec<String>,
    windows: Vec<String>,
    slurm: Vec<String>,
    sysctl: Vec<String>,
}

fn whole(v: V) -> Option<u64> {
    super::knobs::whole(v)
}

fn offload_device(v: V) -> Option<&'static str> {
    match v {
        V::Choice(c @ ("cpu" | "nvme")) => Some(c),
        V::Choice("none") => Some("none"),
        _ => None,
    }
}

impl Writer {
    /// An environment variable of the Ollama server, once.
    fn ollama_env(&mut self, line: String) {
        if !self.ollama.contains(&line) {
            self.ollama.push(line);
        }
    }

    fn inference(
        &mut self,
        engine: Option<Engine>,
        s: &Setting,
        a: &AsItStands<'_>,
        r: &Recommendation,
    ) {
        let Some(engine) = engine else { return };
        match (engine, s.knob, s.value) {
            (Engine::LlamaCpp, K::ContextLen, v) => {
                if let Some(n) = whole(v) {
                    self.llama.push(format!("-c {n}"));
                    self.ollama.push(format!("PARAMETER num_ctx {n}"));
                    self.lm_studio.push(format!("--context-length {n}"));
                }
            }
            (Engine::LlamaCpp, K::NGpuLayers, v) => {
                if let Some(n) = whole(v) {
                    self.llama.push(format!("-ngl {n}"));
                    // Ollama and LM Studio can't keep experts in host RAM by layer: their layer
                    // count alone would put every expert of those layers on the GPU. (Ollama
                    // with `num_gpu` unset leaves that split to llama-server's own fit.)
                    let experts_split = r.settings.iter().any(|x| match (x.knob, x.value) {
                        (K::NCpuMoe, v) => whole(v).is_some_and(|n| n > 0),
                        (K::ExpertsOnCpu, v) => matches!(v, V::Bool(true)),
                        _ => false,
                    });
                    let slots = a.inference.map_or(0, |m| m.plan.shape.layers + 1);
                    if !experts_split {
                        self.ollama.push(format!("PARAMETER num_gpu {n}"));
                        if let Some(g) = super::lm_studio::gpu_share(n, slots) {
                            self.lm_studio.push(format!("--gpu {g}"));
                        }
                    }
                }
            }
            (Engine::LlamaCpp, K::ExpertsOnCpu, V::Bool(true)) => self.llama.push("--cpu-moe".into()),
            (Engine::LlamaCpp, K::NCpuMoe, v) => {
                if let Some(n) = whole(v).filter(|&n| n > 0) {
                    self.llama.push(format!("--n-cpu-moe {n}"));
                }
            }
            // Ollama has one cache type for K and V, `OLLAMA_KV_CACHE_TYPE`
            // (`envconfig.KvCacheType`, envconfig/config.go).
            (Engine::LlamaCpp, K::CacheTypeK, V::Choice(t)) => {
                self.llama.push(format!("-ctk {t}"));
                self.ollama_env(format!("OLLAMA_KV_CACHE_TYPE={t}"));
            }
            (Engine::LlamaCpp, K::CacheTypeV, V::Choice(t)) => {
                self.llama.push(format!("-ctv {t}"));
                self.ollama_env(format!("OLLAMA_KV_CACHE_TYPE={t}"));
            }
            (Engine::LlamaCpp, K::KvCacheDtype, V::Choice("fp8")) => {
                self.llama.push("-ctk q8_0 -ctv q8_0".into());
                self.ollama_env("OLLAMA_KV_CACHE_TYPE=q8_0".into());
            }
            // `OLLAMA_FLASH_ATTENTION` (`envconfig.FlashAttention`): 1 or 0.
            (Engine::LlamaCpp, K::FlashAttn, V::Choice(f @ ("on" | "off"))) => {
                self.llama.push(format!("-fa {f}"));
                let on = u8::from(f == "on");
                self.ollama_env(format!("OLLAMA_FLASH_ATTENTION={on}"));
            }
            // `OLLAMA_NUM_PARALLEL` (`envconfig.NumParallel`): Ollama's `-np`.
            (Engine::LlamaCpp, K::ConcurrentSequences, v) => {
                if let Some(n) = whole(v) {
                    self.llama.push(format!("-np {n}"));
                    self.ollama_env(format!("OLLAMA_NUM_PARALLEL={n}"));
                }
            }
            (Engine::LlamaCpp, K::Weights, V::Choice(q)) => {
                self.llama.push(format!("-m model-{}.gguf", q.to_uppercase()))
            }
            (Engine::Vllm, K::ContextLen, v) => {
                if let Some(n) = whole(v) {
                    self.vllm.push(format!("--max-model-len {n}"));
                }
            }
            (Engine::Vllm, K::KvCacheDtype, V::Choice(d)) => {
                self.vllm.push(format!("--kv-cache-dtype {d}"))
            }
            (Engine::Vllm, K::CpuOffloadGb | K::SwapSpace | K::GpuMemoryUtilization, v) => {
                let flag = match s.knob {
                    K::CpuOffloadGb => "--cpu-offload-gb",
                    K::SwapSpace => "--swap-space",
                    _ => "--gpu-memory-utilization",
                };
                if let Some(f) = super::knobs::float(v) {
                    self.vllm
                        .push(format!("{flag} {}", super::knobs::decimal(f)));
                }
            }
            (Engine::Vllm, K::ConcurrentSequences, v) => {
                if let Some(n) = whole(v) {
                    self.vllm.push(format!("--max-num-seqs {n}"));
                }
            }
            (Engine::Vllm, K::Weights, V::Choice("int4")) => {
                self.vllm.push("--quantization awq".into())
            }
            (Engine::Vllm, K::Weights, V::Choice("fp8")) => {
                self.vllm.push("--quantization fp8".into())
            }
            (Engine::Transformers, K::NGpuLayers, _) => {
                // Each GPU's share as the plan re-run placed it, GiB rounded up.
                let per_gpu = r.result.gpu_peak_bytes_per_gpu.map_or(0, gib);
                let gpus = a.inference.map_or(1, |m| m.plan.gpus.max(1));
                let mut mem: Vec<String> = (0..gpus)
                    .map(|i| format!("{i}: \"{per_gpu}GiB\""))
                    .collect();
                mem.push("\"cpu\": \"…\"".into());
                if per_gpu > 0 {
                    self.from_pretrained.push("device_map=\"auto\"".into());
                    self.from_pretrained
                        .push(format!("max_memory={{{}}}", mem.join(", ")));
                }
            }
            (Engine::Transformers, K::Weights, V::Choice("int4")) => self.from_pretrained.push(
                "quantization_config=BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type=\"nf4\")"
                    .into(),
            ),
            (_, K::CheckpointFiles, V::Choice("safetensors")) => {
                self.from_pretrained.push("use_safetensors=True".into())
            }
            (_, K::CheckpointShardSize, v) => {
                if let Some(b) = whole(v) {
                    self.pytorch.push(format!(
                        "model.save_pretrained(path, max_shard_size=\"{}GB\")",
                        b / 1_000_000_000
                    ));
                }
            }
            _ => {}
        }
    }

    fn training(&mut self, plan: Option<&TrainingPlan>, s: &Setting) {
        let fsdp = plan.is_some_and(|p| p.strategy == Strategy::FsdpFullShard);
        match (s.knob, s.value) {
            (K::Strategy | K::ZeroStage, v) => {
                let stage = match v {
                    V::Choice("zero1") => Some(1),
                    V::Choice("zero2") => Some(2),
                    V::Choice("zero3") => Some(3),
                    V::Choice("ddp") => Some(0),
                    V::Whole(n) => Some(n),
                    _ => None,
                };
                if let Some(st) = stage {
                    self.zero.insert("stage".into(), json!(st));
                }
                if v == V::Choice("fsdp") {
                    self.accelerate
                        .push("distributed_type: FSDP\nfsdp_config:\n  fsdp_sharding_strategy: FULL_SHARD".into());
                }
            }
            (K::OffloadOptimizer, v) => {
                if let Some(d) = offload_device(v) {
                    if fsdp && d == "cpu" {
                        self.fsdp
                            .push("cpu_offload=CPUOffload(offload_params=True)".into());
                        self.accelerate.push("fsdp_offload_params: true".into());
                    } else {
                        let mut o = json!({"device": d});
                        if d == "cpu" {
                            o["pin_memory"] = json!(true);
                        }
                        if d == "nvme" {
                            o["nvme_path"] = json!("/local_nvme");
                        }
                        self.zero.insert("offload_optimizer".into(), o);
                    }
                }
            }
            (K::OffloadParam, v) => {
                if let Some(d) = offload_device(v) {
                    if fsdp && d == "cpu" {
                        self.fsdp
                            .push("cpu_offload=CPUOffload(offload_params=True)".into());
                        self.accelerate.push("fsdp_offload_params: true".into());
                    } else {
                        let mut o = json!({"device": d});
                        if d == "nvme" {
                            o["nvme_path"] = json!("/local_nvme");
                        }
                        self.zero.insert("offload_param".into(), o);
                    }
                }
            }
            (K::ZeroInit, V::Bool(true)) => self
                .pytorch
                .push("with deepspeed.zero.Init(config_dict_or_path=ds_config):\n    model = MyModel()".into()),
            (K::MicroBatch, v) => {
                if let Some(n) = whole(v) {
                    self.deepspeed
                        .insert("train_micro_batch_size_per_gpu".into(), json!(n));
                }
            }
            (K::Checkpointing, V::Bool(true)) => {
                self.pytorch.push("model.gradient_checkpointing_enable()".into())
            }
            (K::Finetune, V::Choice("lora")) => self.pytorch.push(
                "model = peft.get_peft_model(model, peft.LoraConfig(r=16, lora_alpha=32, target_modules=\"all-linear\"))"
                    .into(),
            ),
            (K::Finetune, V::Choice("qlora")) => {
                self.from_pretrained.push(
                    "quantization_config=BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type=\"nf4\", bnb_4bit_use_double_quant=True)"
                        .into(),
                );
                self.pytorch.push(
                    "model = peft.get_peft_model(model, peft.LoraConfig(r=16, lora_alpha=32, target_modules=\"all-linear\"))"
                        .into(),
                );
            }
            (K::Loading, V::Choice("rank0")) => {
                self.fsdp.push("sync_module_states=True".into());
                self.accelerate.push(
                    "fsdp_cpu_ram_efficient_loading: true\nfsdp_sync_module_states: true".into(),
                );
            }
            (K::Loading, V::Choice("meta-device")) => self.pytorch.push(
                "with torch.device(\"meta\"):\n    model = MyModel()\nmodel.load_state_dict(state_dict, assign=True)"
                    .into(),
            ),
            (K::Loading, V::Choice("low-cpu-mem-usage")) => {
                self.from_pretrained.push("low_cpu_mem_usage=True".into())
            }
            (K::Loading, V::Choice("mmap")) => self
                .pytorch
                .push("state_dict = torch.load(path, mmap=True, weights_only=True)".into()),
            _ => {}
        }
    }

    fn workload(&mut self, s: &Setting) {
        let kw = match s.knob {
            K::NumWorkers => "num_workers",
            K::PrefetchFactor => "prefetch_factor",
            K::BatchSize => "batch_size",
            K::PinMemory => "pin_memory",
            K::PersistentWorkers => "persistent_workers",
            K::DecodeOn => {
                if s.value == V::Choice("gpu") {
                    self.pytorch
                        .push("torchvision.io.decode_jpeg(data, device=\"cuda\")".into());
                }
                return;
            }
            _ => return,
        };
        let value = match s.value {
            V::Whole(n) => n.to_string(),
            V::Bool(true) => "True".into(),
            V::Bool(false) => "False".into(),
            _ => return,
        };
        self.dataloader.push(format!("{kw}={value}"));
    }

    fn machine(&mut self, s: &Setting) {
        match (s.knob, s.value) {
            (K::ShmSize, V::Whole(b)) => {
                let g = gib(b);
                self.docker.push(format!("docker run --shm-size={g}g …"));
                self.kubernetes.push(format!(
                    "volumes:\n  - name: dshm\n    emptyDir:\n      medium: Memory\n      sizeLimit: {g}Gi\nvolumeMounts:\n  - name: dshm\n    mountPath: /dev/shm"
                ));
            }
            // Slurm's `--mem` takes a size with a unit suffix (K, M, G, T; sbatch(1)); Docker's
            // `--memory` likewise (b, k, m, g; docker run reference).
            (K::MemoryLimit, V::Whole(b)) => {
                let g = gib(b);
                self.slurm.push(format!("#SBATCH --mem={g}G"));
                self.docker.push(format!("docker run --memory={g}g …"));
            }
            // `iogpu.wired_limit_mb` is in MiB (macOS 14+; until the next reboot).
            (K::GpuWiredLimit, V::Whole(b)) => {
                self.sysctl
                    .push(format!("sudo sysctl iogpu.wired_limit_mb={}", b >> 20));
            }
            // amdgpu's `gttsize` is in MiB; TTM's `pages_limit` counts 4 KiB pages (kernel
            // docs, amdgpu module parameters).
            (K::Gtt, V::Whole(b)) => {
                self.sysctl.push(format!(
                    "kernel command line: amdgpu.gttsize={} ttm.pages_limit={}",
                    b >> 20,
                    b / 4096
                ));
            }
            (K::PageFile, V::Whole(b)) => self.windows.push(format!(
                "System Properties → Advanced → Performance: Settings → Advanced → Virtual memory: Change → Custom size: maximum {} MB (on an SSD)",
                b >> 20
            )),
            (K::WslMemory, V::Whole(b)) => {
                self.wslconfig.push(format!(
                    "[wsl2]\nmemory={}",
                    size_arg(b).replace("GiB", "GB")
                ));
            }
            _ => {}
        }
    }

    /// Changes no knob spells: by the advice id.
    fn by_id(&mut self, r: &Recommendation) {
        match r.id {
            AdviceId::GrowPageFile if self.windows.is_empty() => self.windows.push(
                "System Properties → Advanced → Performance: Settings → Advanced → Virtual memory: Change → System managed size (on an SSD)"
                    .into(),
            ),
            AdviceId::GpuDecode if self.pytorch.is_empty() => self.pytorch.push(
                "torchvision.io.decode_jpeg(data, device=\"cuda\")"
                    .into(),
            ),
            AdviceId::IndexAsArrays => self.pytorch.push(
                "self.paths = np.array(paths)"
                    .into(),
            ),
            _ => {}
        }
    }

    fn finish(mut self) -> Vec<Native> {
        let mut out = Vec::new();
        let mut add = |tool, text: String| {
            if !text.is_empty() {
                out.push(Native { tool, text });
            }
        };
        if !self.zero.is_empty() {
            self.deepspeed
                .insert("zero_optimization".into(), Value::Object(self.zero));
        }
        if !self.deepspeed.is_empty() {
            let text =
                serde_json::to_string_pretty(&Value::Object(self.deepspeed)).unwrap_or_default();
            add(Tool::Deepspeed, text);
        }
        add(Tool::Accelerate, self.accelerate.join("\n"));
        if !self.fsdp.is_empty() {
            add(
                Tool::Fsdp,
                format!("FullyShardedDataParallel(model, {})", self.fsdp.join(", ")),
            );
        }
        let mut py = Vec::new();
        if !self.dataloader.is_empty() {
            py.push(format!(
                "DataLoader(dataset, {})",
                self.dataloader.join(", ")
            ));
        }
        if !self.from_pretrained.is_empty() {
            py.push(format!(
                "AutoModelForCausalLM.from_pretrained(name, {})",
                self.from_pretrained.join(", ")
            ));
        }
        py.append(&mut self.pytorch);
        add(Tool::Pytorch, py.join("\n"));
        if !self.llama.is_empty() {
            add(
                Tool::LlamaCpp,
                format!("llama-server {}", self.llama.join(" ")),
            );
        }
        add(Tool::Ollama, self.ollama.join("\n"));
        if !self.lm_studio.is_empty() {
            add(
                Tool::LmStudio,
                format!("lms load MODEL {}", self.lm_studio.join(" ")),
            );
        }
        if !self.vllm.is_empty() {
            add(
                Tool::Vllm,
                format!("vllm serve MODEL {}", self.vllm.join(" ")),
            );
        }
        add(Tool::Docker, self.docker.join("\n"));
        add(Tool::Kubernetes, self.kubernetes.join("\n"));
        add(Tool::Slurm, self.slurm.join("\n"));
        add(Tool::Sysctl, self.sysctl.join("\n"));
        add(Tool::Wslconfig, self.wslconfig.join("\n"));
        add(Tool::Windows, self.windows.join("\n"));
        out
    }
}

/// Writes each recommendation's native texts.
pub fn write_all(recs: &mut [Recommendation], a: &AsItStands<'_>) {
    for r in recs.iter_mut() {
        r.native = native(a, r);
    }
}
