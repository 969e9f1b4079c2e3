//! Command-line usage errors (an unknown option or command, a missing or bad value, a value out
//! of range) in Chinese are Chinese, name what was typed and exit 2; in English they are clap's.

mod common;

/// Runs `ramvram` with `args` and the language `lang`; its exit status and standard error.
fn run(lang: &str, args: &[&str]) -> (Option<i32>, String, String) {
    let out = common::ramvram()
        .args(["--lang", lang])
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stderr).unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

/// Runs `args` in Chinese: exit status 2, nothing on standard output, a message on standard
/// error that holds each of `wanted`, points to the command's `--help`, and has none of clap's
/// English.
fn chinese_error(args: &[&str], help_for: &str, wanted: &[&str]) -> String {
    let (code, err, out) = run("zh", args);
    assert_eq!(code, Some(2), "{args:?}: {err}");
    assert!(out.is_empty(), "{args:?}: stdout {out}");
    assert!(err.starts_with("错误："), "{args:?}: {err}");
    for w in wanted {
        assert!(err.contains(w), "{args:?}: no {w:?} in\n{err}");
    }
    let help = format!("想看全部选项，运行 {help_for} --help。\n");
    assert!(
        err.ends_with(&help),
        "{args:?}: no {help:?} at the end of\n{err}"
    );
    for english in [
        "error",
        "Usage",
        "For more information",
        "invalid",
        "tip",
        "found",
        "possible values",
        "is not",
        "expected",
        "`",
    ] {
        assert!(!err.contains(english), "{args:?}: {english:?} in\n{err}");
    }
    err
}

#[test]
fn an_unknown_option_is_named_with_the_usage() {
    let bogus = "--bogus";
    let err = chinese_error(
        &["advise", bogus],
        "ramvram advise",
        &[&format!("ramvram advise 没有 {bogus} 这个选项。")],
    );
    assert!(err.contains("\n\n用法：ramvram advise [选项]\n\n"), "{err}");
    // A near miss gets the option meant.
    chinese_error(
        &["advise", "--gpus-per-nod", "8"],
        "ramvram advise",
        &[
            "没有 --gpus-per-nod 这个选项",
            "提示：是不是想写 --gpus-per-node？",
        ],
    );
}

#[test]
fn a_bad_integer_says_it_is_not_one() {
    let value = "abc";
    chinese_error(
        &["advise", "--num-workers", value],
        "ramvram advise",
        &[&format!("--num-workers 的值不对：{value} 不是整数。")],
    );
}

#[test]
fn an_unknown_command_gets_the_one_meant() {
    let typo = "advize";
    let err = chinese_error(
        &[typo],
        "ramvram",
        &[
            &format!("ramvram 没有 {typo} 这个子命令。"),
            "提示：是不是想写 advise？",
        ],
    );
    assert!(err.contains("用法：ramvram [选项] [命令]"), "{err}");
}

#[test]
fn a_missing_value_names_the_option() {
    chinese_error(
        &["advise", "--params"],
        "ramvram advise",
        &["--params 后面要写一个值，但没有写。"],
    );
}

#[test]
fn a_value_out_of_range_gives_the_range() {
    let (value, max) = ("300", 60);
    chinese_error(
        &["bench", "decode", "--seconds", value],
        "ramvram bench decode",
        &[&format!(
            "--seconds 的值不对：{value} 超出了范围，要在 1 到 {max} 之间。"
        )],
    );
}

#[test]
fn our_own_value_reasons_are_chinese() {
    let cases: [(&[&str], String); 5] = [
        (
            &["advise", "--params", "7Q"],
            "7Q 不是数字（可以写 7B、350M 或 2851000000）".into(),
        ),
        (
            &["advise", "--dataset-size", "2XB"],
            "2XB 的单位 xb 认不出来".into(),
        ),
        (
            &["advise", "--image-size", "big"],
            "big 要写成“宽x高”，例如 3840x2160".into(),
        ),
        (
            &["advise", "--preset", "gpt-9"],
            "没有叫 gpt-9 的模型预设，可选：resnet50、vit-l16".into(),
        ),
        (
            &["advise", "--lora-share", "150%"],
            "150% 要大于 0，最多 100%".into(),
        ),
    ];
    for (args, reason) in cases {
        let flag = args[args.len() - 2];
        chinese_error(
            args,
            "ramvram advise",
            &[&format!("{flag} 的值不对："), &reason],
        );
    }
    chinese_error(
        &["watch", "--interval", "1ms"],
        "ramvram watch",
        &["采样间隔要在 100ms 到 1h 之间，1ms 不在这个范围内"],
    );
}

#[test]
fn a_value_not_among_the_choices_lists_them() {
    chinese_error(
        &["advise", "--strategy", "zero9"],
        "ramvram advise",
        &[
            "--strategy 不能取 zero9。",
            "\n  可选值：ddp、zero1、zero2、zero3、fsdp\n",
            "是不是想写 zero3？",
        ],
    );
}

#[test]
fn conflicts_and_switches_with_values_are_chinese() {
    chinese_error(
        &["advise", "--profile", "a.json", "--profile-dir", "lab"],
        "ramvram advise",
        &["--profile 不能和 --profile-dir 一起用。"],
    );
    chinese_error(
        &["advise", "--json=yes"],
        "ramvram advise",
        &["--json 是个开关，后面不带值，这里却写了 yes。"],
    );
    chinese_error(
        &["bench", "storage"],
        "ramvram bench storage",
        &["缺少必须给出的参数：<FOLDER>。"],
    );
}

/// `ramvram bench` without a command shows its help, with Chinese headings, on standard error.
#[test]
fn a_missing_subcommand_shows_chinese_help() {
    let (code, err, _) = run("zh", &["bench"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("\n命令：\n") && err.contains("\n选项：\n"),
        "{err}"
    );
}

/// Without `--lang`, `RAMVRAM_LANG` chooses the language of the message too.
#[test]
fn the_environment_language_applies() {
    let out = common::ramvram()
        .env("RAMVRAM_LANG", "zh")
        .args(["advise", "--bogus"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("没有 --bogus 这个选项"), "{err}");
}

#[test]
fn english_keeps_claps_messages() {
    let (code, err, _) = run("en", &["advise", "--bogus"]);
    assert_eq!(code, Some(2));
    assert_eq!(
        err,
        "error: unexpected argument '--bogus' found\n\nUsage: ramvram advise [OPTIONS]\n\n\
         For more information, try '--help'.\n"
    );
    let (code, err, _) = run("en", &["advise", "--params", "abc"]);
    assert_eq!(code, Some(2));
    assert_eq!(
        err,
        "error: invalid value 'abc' for '--params <PARAMS>': `abc` is not a number \
         (examples: 7B, 350M, 2851000000)\n\nFor more information, try '--help'.\n"
    );
    let (_, err, _) = run("en", &["bench", "decode", "--seconds", "300"]);
    assert!(
        err.starts_with(
            "error: invalid value '300' for '--seconds <SECONDS>': 300 is not in 1..=60\n"
        ),
        "{err}"
    );
}

/// A negative number is a value of its option, refused as negative, not taken for an unknown
/// option ("unexpected argument '-3'", or '-4' for `-40`).
#[test]
fn a_negative_number_is_a_refused_value_not_an_option() {
    chinese_error(
        &["advise", "--workload", "generic", "--num-workers", "-3"],
        "ramvram advise",
        &["--num-workers 的值不对：-3 不能是负数。"],
    );
    for args in [
        ["advise", "--workload", "generic", "--gpu-demand", "-40"],
        ["report", "--out", "x.md", "--num-workers", "-3"],
    ] {
        let (code, err, _) = run("en", &args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(!err.contains("unexpected argument"), "{args:?}: {err}");
        assert!(err.contains(args[3]), "{args:?}: {err}");
    }
}
