//! Every page of the window, every report and the terminal, in Chinese, checked for English
//! left untranslated ([`english::stray_english`], whose allow-list says what may stay); and in
//! both languages, every hint that gives a command shows real ASCII `--` options, with no
//! en dash and no backtick (Markdown keeps its code spans).

#[path = "../common/mod.rs"]
mod common;
mod english;
mod outputs;

use ramvram::i18n::Lang;

use outputs::Output;

/// Fails with every stray English word of every output, grouped by where it was seen. With
/// `LOCALE_DUMP=<folder>` set, each output is also written there, to read what was checked.
fn assert_chinese(outputs: &[Output]) {
    let mut report = Vec::new();
    let mut words = std::collections::BTreeSet::new();
    for o in outputs {
        if let Ok(dir) = std::env::var("LOCALE_DUMP") {
            let file = o.name.replace(['/', ' ', ','], "_");
            std::fs::write(format!("{dir}/{file}.txt"), &o.text).unwrap();
        }
        let bad = english::stray_english(&o.text, &o.data);
        if !bad.is_empty() {
            words.extend(
                bad.iter()
                    .map(|b| b.split(' ').next().unwrap_or("").to_string()),
            );
            report.push(format!("{}:\n    {}", o.name, bad.join("\n    ")));
        }
    }
    assert!(
        report.is_empty(),
        "English in Chinese output: {words:?}\n{}",
        report.join("\n")
    );
}

#[test]
fn the_checker_finds_english_and_lets_the_allowed_through() {
    let data = vec![
        "lab-4090-128g".to_string(),
        "AMD Ryzen 9 5900X 12-Core Processor".into(),
    ];
    let ok = "主机 lab-4090-128g 的 CPU 是 AMD Ryzen 9 5900X 12-Core Processor，内存 64.0\u{a0}GiB，\
              用 ramvram bench memory 测带宽；Tim Dettmers《A Full Hardware Guide to Deep \
              Learning》；锁页（pinned）内存；DDP 的每个 rank；/dev/shm 与 --lang zh。";
    assert_eq!(english::stray_english(ok, &data), Vec::<String>::new());
    let bad = english::stray_english("CPU 平台：Desktop (AM5)，the seed article's example", &data);
    let words: Vec<&str> = bad.iter().map(|b| b.split(' ').next().unwrap()).collect();
    assert_eq!(
        words,
        [
            "\"Desktop\"",
            "\"the\"",
            "\"seed\"",
            "\"article's\"",
            "\"example\""
        ]
    );
}

#[test]
fn every_window_page_in_chinese_is_chinese() {
    assert_chinese(&outputs::window(Lang::Zh));
}

#[test]
fn every_report_in_chinese_is_chinese() {
    assert_chinese(&outputs::markdown(Lang::Zh));
    assert_chinese(&outputs::pdf(Lang::Zh));
}

#[test]
fn the_terminal_in_chinese_is_chinese() {
    assert_chinese(&outputs::terminal(Lang::Zh));
    assert_chinese(&outputs::help(Lang::Zh));
    assert_chinese(&outputs::usage_errors(Lang::Zh));
}

/// Hints that give a command: every `ramvram` command shown has its options as ASCII `--`,
/// and no output but Markdown shows a backtick or a dash that would break a copied option.
#[test]
fn commands_in_hints_show_ascii_options_everywhere() {
    for lang in Lang::ALL {
        let mut all = outputs::window(lang);
        all.extend(outputs::pdf(lang));
        all.extend(outputs::terminal(lang));
        all.extend(outputs::help(lang));
        // In English these are clap's messages, whose reasons keep their code spans.
        if lang == Lang::Zh {
            all.extend(outputs::usage_errors(lang));
        }
        let mut commands = 0;
        for o in &all {
            // An en dash or a minus sign where `--` was meant ("–out").
            for bad in ['\u{2013}', '\u{2212}'] {
                for (i, _) in o.text.match_indices(bad) {
                    let next = o.text[i + bad.len_utf8()..].chars().next();
                    assert!(
                        !next.is_some_and(|c| c.is_ascii_lowercase()),
                        "{}: a dash before an option name: {}",
                        o.name,
                        around(&o.text, i)
                    );
                }
            }
            assert!(
                !o.text.contains('`'),
                "{}: a backtick shown: {}",
                o.name,
                around(&o.text, o.text.find('`').unwrap())
            );
            for (i, _) in o.text.match_indices("ramvram ") {
                let rest = &o.text[i..];
                let command: String = rest.chars().take_while(|c| *c != '\n').take(80).collect();
                if ["detect", "advise", "report", "bench"]
                    .iter()
                    .any(|sub| command["ramvram ".len()..].starts_with(sub))
                {
                    commands += 1;
                    for word in command.split_whitespace().skip(2) {
                        // An option is `--name`; a lone `-` or an en dash would not be.
                        assert!(
                            !word.starts_with('-') || word.starts_with("--"),
                            "{}: {command}",
                            o.name
                        );
                    }
                }
            }
        }
        assert!(
            commands > 20,
            "{lang:?}: hints with commands seen: {commands}"
        );
    }
    // Markdown keeps code spans, and their options are ASCII too.
    for o in outputs::markdown(Lang::Zh) {
        assert!(
            !o.text.contains("`–") && !o.text.contains(" –out"),
            "{}",
            o.name
        );
    }
}

fn around(text: &str, i: usize) -> String {
    let from = text[..i].char_indices().rev().nth(30).map_or(0, |(b, _)| b);
    let to = text[i..]
        .char_indices()
        .nth(30)
        .map_or(text.len(), |(b, _)| i + b);
    text[from..to].replace('\n', "⏎")
}

/// Choosing a model preset in the planner changes the model, not the user's strategy or
/// offload: the 65B preset keeps ZeRO-2 with the optimizer offload to the CPU chosen before it.
#[test]
fn a_preset_keeps_the_users_offload_choice() {
    use ramvram::advisor::training::{OffloadTarget, Strategy};
    let plan = outputs::pick_preset("dgx-a100", "650 亿参数解码器（LLaMA 65B，原文的例子）");
    assert_eq!(plan.preset.as_deref(), Some("llama-65b"));
    let preset = ramvram::advisor::training::presets::preset("llama-65b").unwrap();
    assert_eq!(plan.params, preset.params);
    assert_eq!(plan.strategy, Strategy::Zero2);
    assert_eq!(plan.offload_optimizer, OffloadTarget::Cpu);
}

/// Every command in a locale text (a code span starting with `ramvram `) gives each option
/// that takes a value a value: `ramvram detect --out NAME.json`, never `ramvram detect --out`,
/// which a student would copy and get clap's error. The options and whether they take a value
/// come from the command line's own definition.
#[test]
fn commands_in_locale_texts_give_every_option_its_value() {
    use ramvram::i18n::{Msg, tr};
    let root = ramvram::cli::help::command(Lang::En);
    let mut seen = 0;
    let mut bad = Vec::new();
    for lang in Lang::ALL {
        for msg in Msg::ALL {
            let text = tr(lang, msg);
            let spans = ramvram::codespan::parse(text);
            for r in &spans.code {
                let span = &spans.text[r.clone()];
                let Some(rest) = span.strip_prefix("ramvram ") else {
                    continue;
                };
                seen += 1;
                let words: Vec<&str> = rest.split_whitespace().collect();
                let mut cmd = &root;
                let mut i = 0;
                while i < words.len() {
                    let w = words[i];
                    if w == "--" {
                        break;
                    }
                    if let Some(name) = w.strip_prefix("--") {
                        let name = name.split('=').next().unwrap_or(name);
                        let arg = cmd
                            .get_arguments()
                            .chain(root.get_arguments())
                            .find(|a| a.get_long() == Some(name));
                        let takes = arg.is_some_and(|a| a.get_action().takes_values());
                        if takes && !w.contains('=') {
                            match words.get(i + 1) {
                                Some(v) if !v.starts_with("--") => i += 1,
                                _ => bad.push(format!("{} ({lang:?}): `{span}`", msg.key())),
                            }
                        }
                    } else if let Some(sub) = cmd.find_subcommand(w) {
                        cmd = sub;
                    }
                    i += 1;
                }
            }
        }
    }
    assert!(seen > 20, "commands seen: {seen}");
    assert!(
        bad.is_empty(),
        "options without their value:\n{}",
        bad.join("\n")
    );
}
