use clap::CommandFactory;
fn walk(cmd: &clap::Command, path: &str, out: &mut String) {
    out.push_str(&format!("ABOUT {path} = {:?}\n", cmd.get_about().map(|s| s.to_string())));
    for a in cmd.get_arguments() {
        if a.is_hide_set() { continue; }
        out.push_str(&format!("ARG {path}.{} = {:?} | heading {:?}\n", a.get_id(), a.get_help().map(|s| s.to_string()), a.get_help_heading()));
        for v in a.get_possible_values() {
            out.push_str(&format!("  VAL {} = {:?}\n", v.get_name(), v.get_help().map(|s| s.to_string())));
        }
    }
    for s in cmd.get_subcommands() {
        walk(s, &format!("{path}_{}", s.get_name()), out);
    }
}
#[test]
fn dump() {
    let mut out = String::new();
    walk(&ramvram::cli::Args::command(), "root", &mut out);
    std::fs::write("/tmp/dump/help.txt", out).unwrap();
}
