//! The memory fence, through the host: a memory error ends the stage, `pcall` or not; buffers
//! are charged before they grow; the heaviest cases run again in a child process under
//! `ulimit -v`, which must exit normally (an allocation the system refused would abort it);
//! and what scripts print is kept within bounds. The memory error's cause at the VM:
//! ludus-lua's tests/memory.rs.

mod support;

use support::hostile::*;
use support::*;

#[test]
fn memory_bomb_in_pcall() {
    Case::on_start(MEMORY_BOMB_IN_PCALL).faults("memory limit", 1);
}

// The result's buffer is charged as it grows: the budget ends it before memory does.
#[test]
fn gsub_explodes() {
    Case::on_start(GSUB_EXPLODES).faults(BUDGET, 1);
}

/// The heaviest cases, and what each must end in.
const WORST: &[(&str, &str, &str)] = &[
    ("rep_in_pcall_loop", REP_IN_PCALL_LOOP, BUDGET),
    ("memory_bomb_in_pcall", MEMORY_BOMB_IN_PCALL, "memory limit"),
    ("gsub_explodes", GSUB_EXPLODES, BUDGET),
    ("print_big_strings", PRINT_BIG_STRINGS, BUDGET),
    ("varargs", VARARGS, BUDGET),
    ("format_big_strings", FORMAT_BIG_STRINGS, BUDGET),
];

#[test]
fn worst_cases_under_a_memory_limit() {
    in_a_child_under_ulimit("worst_cases_child", 3_000_000);
}

/// Runs [`WORST`] when started by `worst_cases_under_a_memory_limit`.
#[test]
fn worst_cases_child() {
    if !is_child() {
        return;
    }
    for (name, src, text) in WORST {
        if let Err(e) = Case::on_start(*src).check_fault_at(text, "scripts/main.lua:1") {
            panic!("{name}: {e}");
        }
    }
}

/// The buffer cases with 4 GiB of script memory, in a child process limited to 2 GB of
/// address space: the budget ends each before it allocates much.
#[test]
fn buffers_stop_at_the_budget_under_a_memory_limit() {
    in_a_child_under_ulimit("buffers_child", 2_000_000);
}

/// Runs the buffer cases when started by `buffers_stop_at_the_budget_under_a_memory_limit`.
#[test]
fn buffers_child() {
    if !is_child() {
        return;
    }
    for (name, src) in [
        ("concat_with_a_huge_separator", CONCAT_WITH_A_HUGE_SEPARATOR),
        ("pack_with_huge_padding", PACK_WITH_HUGE_PADDING),
    ] {
        let case = Case::on_start(src).memory(4096);
        if let Err(e) = case.check_fault_at(BUDGET, "scripts/main.lua:1") {
            panic!("{name}: {e}");
        }
    }
}

#[test]
fn print_keeps_a_bounded_log() {
    // Per tick: 100 lines, then a count of the rest; long lines are cut.
    let mut g = game(
        "function on_start() \
           local s = string.rep('y', 5000) \
           for i = 1, 3000 do print(i == 1 and s or i) end \
         end",
    )
    .unwrap();
    run(&mut g, 1).unwrap();
    let lines = g.consequences_mut().drain_log();
    assert_eq!(lines.len(), 101, "100 lines and the count of the rest");
    assert!(
        lines[0].starts_with("[tick 1] scripts/main.lua:1: yyy")
            && lines[0].len() < 1100
            && lines[0].ends_with("(3976 more bytes)"),
        "{}",
        &lines[0][1000..]
    );
    assert_eq!(lines[1], "[tick 1] scripts/main.lua:1: 2");
    assert_eq!(
        lines[100],
        "[tick 1] 2900 more lines were not shown (at most 100 lines per tick)"
    );

    // Between reads: 1000 lines, then a count of those dropped.
    let mut g = game("function on_tick(t) for i = 1, 100 do print(t.tick, i) end end").unwrap();
    run(&mut g, 12).unwrap();
    let lines = g.consequences_mut().drain_log();
    assert_eq!(lines.len(), 1001, "1000 lines and the dropped count");
    assert_eq!(lines[0], "[tick 1] scripts/main.lua:1: 1\t1");
    assert_eq!(lines[999], "[tick 10] scripts/main.lua:1: 10\t100");
    assert!(
        lines[1000].starts_with("[200 more lines were dropped"),
        "{}",
        lines[1000]
    );
}
