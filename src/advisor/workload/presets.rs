//! Workload presets. Dataset figures come from the datasets' publications; GPU demand figures are
//! assumptions and are labelled so wherever they show.

use super::{
    Augmentation, CacheMode, CacheScope, DataFormat, DecodeOn, Dtype, StoredFormat, Workload,
};

/// The preset a workload starts from when the user names none: [`presets`]' `generic`.
pub const GENERIC: &str = "generic";

/// A named preset: its id and the workload.
pub fn presets() -> Vec<(&'static str, Workload)> {
    let base = Workload {
        preset: None,
        dataset_bytes: 0,
        samples: 1,
        width: 0,
        height: 0,
        channels: 3,
        stored: StoredFormat::Jpeg,
        sample_bytes: None,
        crop: 224,
        dtype: Dtype::F32,
        batch_size: 256,
        num_workers: 8,
        prefetch_factor: 2,
        pin_memory: true,
        persistent_workers: true,
        augmentation: Augmentation::Light,
        format: DataFormat::Files,
        decode_on: DecodeOn::Cpu,
        gpu_demand_samples_per_s: 1000.0,
        concurrent_experiments: 1,
        storage: None,
        measured_decode_mpix_per_core: None,
        cache: CacheMode::None,
        cache_width: 0,
        cache_height: 0,
        cache_dtype: Dtype::U8,
        cache_scope: CacheScope::Shared,
        index_bytes_per_sample: None,
        validation: None,
    };
    vec![
        (
            // ILSVRC2012 train: 1,281,167 JPEGs, 138 GB (ILSVRC2012_img_train.tar), typical image
            // 500 × 375 (Russakovsky et al. 2015). Demand: ResNet-50 mixed-precision training on
            // one RTX 4090 ≈ 1,200 images/s (assumption from public benchmarks).
            "imagenet-resnet50",
            Workload {
                preset: Some("imagenet-resnet50".into()),
                dataset_bytes: 138_000_000_000,
                samples: 1_281_167,
                width: 500,
                height: 375,
                gpu_demand_samples_per_s: 1200.0,
                ..base.clone()
            },
        ),
        (
            // The seed article's example (§二.1): 4K (3840 × 2160) medical images, 8 workers,
            // online augmentation. Dataset: 2 TB of ~3 MB JPEGs (assumption, a student's question);
            // 1024² crops, batch 8, heavy augmentation; demand 40 samples/s for a 1024² model on
            // an RTX 4090 (assumption).
            "seed-4k-medical",
            Workload {
                preset: Some("seed-4k-medical".into()),
                dataset_bytes: 2_000_000_000_000,
                samples: 666_667,
                width: 3840,
                height: 2160,
                crop: 1024,
                batch_size: 8,
                augmentation: Augmentation::Heavy,
                gpu_demand_samples_per_s: 40.0,
                ..base.clone()
            },
        ),
        (
            // Text-to-image training at 1024² with multi-scale crops from WebDataset shards:
            // ~1 MP source images, 600 KB each, 5 TB (assumption, LAION-style subsets); demand 16
            // samples/s per GPU (assumption for an SDXL-class UNet).
            "t2i-1024-multiscale",
            Workload {
                preset: Some("t2i-1024-multiscale".into()),
                dataset_bytes: 5_000_000_000_000,
                samples: 8_333_333,
                width: 1024,
                height: 1024,
                crop: 1024,
                batch_size: 16,
                dtype: Dtype::F16,
                augmentation: Augmentation::Heavy,
                format: DataFormat::Shards,
                gpu_demand_samples_per_s: 16.0,
                ..base.clone()
            },
        ),
        (
            // LLM fine-tuning on pre-tokenised shards: 4,096-token sequences of int32 (16 KiB),
            // 10 million sequences; demand 40 sequences/s (assumption for a 7B model on 8 GPUs).
            "llm-token-shards",
            Workload {
                preset: Some("llm-token-shards".into()),
                dataset_bytes: 10_000_000 * 16_384,
                samples: 10_000_000,
                width: 0,
                height: 0,
                channels: 1,
                stored: StoredFormat::Raw,
                sample_bytes: Some(16_384),
                crop: 0,
                batch_size: 8,
                num_workers: 2,
                augmentation: Augmentation::None,
                format: DataFormat::Mmap,
                gpu_demand_samples_per_s: 40.0,
                ..base.clone()
            },
        ),
        (
            // An object detector trained on COCO-sized images: Faster R-CNN R50-FPN, 1x
            // schedule, 9.5 images/s per GPU (detectron2's MODEL_ZOO.md: 0.210 s/iter for 16
            // images on 8 V100s, 16 ÷ 0.210 ÷ 8 = 9.5). COCO train2017: 118,287 JPEGs, 18 GB,
            // typically 640 × 480 (Lin et al. 2014); detectors keep the image near its size
            // (short side 800 in detectron2), not a 224 crop; 2 images per GPU. Detectors and
            // segmenters consume a hundred times fewer images than a ResNet-50 classifier.
            "coco-detector",
            Workload {
                preset: Some("coco-detector".into()),
                dataset_bytes: 18_000_000_000,
                samples: 118_287,
                width: 640,
                height: 480,
                crop: 800,
                batch_size: 2,
                num_workers: 4,
                persistent_workers: false,
                gpu_demand_samples_per_s: 9.5,
                ..base.clone()
            },
        ),
        (
            // What a workload starts from when only some DataLoader flags are given: an
            // ImageFolder of 100,000 JPEGs at 500 × 375 (ImageNet's typical size, Russakovsky
            // et al. 2015) of 56,250 bytes each (0.3 byte per pixel, the typical JPEG of
            // `StoredFormat::bytes_per_pixel`), 224² crops, batch 64, 4 workers and PyTorch's
            // defaults otherwise (prefetch_factor 2, persistent_workers off); demand 1,000
            // samples/s (assumption: a ResNet-50-class model on one current GPU). Every value is
            // an assumption to be replaced.
            GENERIC,
            Workload {
                preset: Some(GENERIC.into()),
                dataset_bytes: 5_625_000_000,
                samples: 100_000,
                width: 500,
                height: 375,
                batch_size: 64,
                num_workers: 4,
                persistent_workers: false,
                ..base
            },
        ),
    ]
}

/// True when the GPUs' demand in `w` is known: given by the user (a scenario without a preset,
/// or `--gpu-demand` changed from the preset's), or a preset's figure for that kind of model
/// (every preset but [`GENERIC`], whose 1,000 samples/s is a placeholder for "a ResNet-50 on
/// some GPU"). When it isn't, starvation can't be checked: the simulator's utilisation is
/// against an invented demand. A `--gpu-demand 1000` given with the generic preset reads as not
/// given (the same value).
pub fn demand_given(w: &Workload) -> bool {
    match basis(w) {
        Some(b) if b.id == GENERIC => b.changed.iter().any(|c| c == "gpu_demand_samples_per_s"),
        _ => true,
    }
}

/// A preset by id.
pub fn preset(id: &str) -> Option<Workload> {
    presets()
        .into_iter()
        .find(|(i, _)| *i == id)
        .map(|(_, w)| w)
}

/// What a workload keeps of the preset it names: the preset's id and the inputs changed since
/// (their JSON names: `num_workers`, `batch_size`, …), in alphabetical order.
/// The disk it is read from and a measured decode rate describe the machine, not the preset,
/// and are not counted (choosing a preset keeps them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PresetBasis {
    /// The preset's id.
    pub id: String,
    /// The inputs that differ from the preset's; empty while it is untouched.
    pub changed: Vec<String>,
}

/// The preset `w` names and what was changed from it; `None` when it names none or one this
/// version doesn't know (a scenario file from another version).
pub fn basis(w: &Workload) -> Option<PresetBasis> {
    let id = w.preset.as_deref()?;
    let original = preset(id)?;
    let (Ok(serde_json::Value::Object(now)), Ok(serde_json::Value::Object(then))) =
        (serde_json::to_value(w), serde_json::to_value(&original))
    else {
        return None;
    };
    const MACHINE: [&str; 3] = ["preset", "storage", "measured_decode_mpix_per_core"];
    let changed = now
        .iter()
        .filter(|(k, v)| !MACHINE.contains(&k.as_str()) && then.get(*k) != Some(*v))
        .map(|(k, _)| k.clone())
        .collect();
    Some(PresetBasis {
        id: id.to_string(),
        changed,
    })
}

#[cfg(test)]
mod basis_tests {
    use super::*;

    #[test]
    fn basis_counts_the_inputs_changed_from_the_preset() {
        let mut w = preset("seed-4k-medical").unwrap();
        assert_eq!(basis(&w).unwrap().changed, Vec::<String>::new());
        // The disk and a measured decode rate are the machine's: choosing a preset keeps them.
        w.storage = Some(crate::profile::DiskKind::Hdd);
        w.measured_decode_mpix_per_core = Some(120.0);
        assert!(basis(&w).unwrap().changed.is_empty());
        w.num_workers = 38;
        w.batch_size += 1;
        let b = basis(&w).unwrap();
        assert_eq!(b.id, "seed-4k-medical");
        assert_eq!(b.changed, ["batch_size", "num_workers"]);
        w.preset = None;
        assert_eq!(basis(&w), None);
        w.preset = Some("from-another-version".into());
        assert_eq!(basis(&w), None);
    }
}
