//! The handler, field and stage tables of docs/scripting.md, from the event list.

use crate::event::EVENT_KINDS;
use crate::phase::Stage;

/// The handler and field tables of docs/scripting.md: when each handler is called, then the
/// fields of each record layout (kinds sharing a layout share a row).
pub fn events_markdown() -> String {
    let mut out = String::from("| handler | stage | called for |\n| --- | --- | --- |\n");
    for spec in EVENT_KINDS {
        let stage = if spec.stage == Stage::One { 1 } else { 2 };
        out.push_str(&format!(
            "| `{}` | {stage} | {} |\n",
            spec.handler, spec.doc
        ));
    }
    out.push_str("\n| handlers | fields |\n| --- | --- |\n");
    let mut done: Vec<&str> = Vec::new();
    for spec in EVENT_KINDS {
        if done.contains(&spec.layout) {
            continue;
        }
        done.push(spec.layout);
        let handlers: Vec<String> = EVENT_KINDS
            .iter()
            .filter(|s| s.layout == spec.layout)
            .map(|s| format!("`{}`", s.handler))
            .collect();
        // A field without a doc shares the doc of the field before it: `x`, `y`: its position.
        let mut groups: Vec<(Vec<&str>, &str)> = Vec::new();
        for f in spec.fields {
            match groups.last_mut() {
                Some((names, _)) if f.doc.is_empty() => names.push(f.name),
                _ => groups.push((vec![f.name], f.doc)),
            }
        }
        let fields: Vec<String> = groups
            .iter()
            .map(|(names, doc)| {
                let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
                format!("{}: {doc}", names.join(", "))
            })
            .collect();
        out.push_str(&format!(
            "| {} | {} |\n",
            handlers.join(", "),
            fields.join("; ")
        ));
    }
    out
}

/// The stage table of docs/scripting.md: which handlers each stage calls, in order.
pub fn stages_markdown() -> String {
    let handlers = |stage: Stage| {
        EVENT_KINDS
            .iter()
            .filter(|s| s.stage == stage)
            .map(|s| format!("`{}`", s.handler))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "| stage | handlers, in this order | then Rust |\n| --- | --- | --- |\n\
         | 1 | {} | applies the damage of archetypes' `contact_damage` in the tick's contacts, then the commands in the order sent; damage produces damage events |\n\
         | 2 | {} | applies the commands; damage sent here is delivered to the next tick's `on_damage` |\n",
        handlers(Stage::One),
        handlers(Stage::Two)
    )
}
