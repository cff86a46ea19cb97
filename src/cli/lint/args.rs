//! The literal arguments of `ludus.*` calls against the types each function's call declares
//! (`api/types.rs`): a literal of a kind the runtime refuses (a string where a number goes, a
//! fraction where a whole number goes, `nil` or nothing where an argument is required) faults
//! whenever the line runs, so `ludus check` says so first.
//!
//! Only literals are judged, and only against the types whose conversion refuses every other
//! kind of value (numbers, whole numbers, entity ids, names and strings): whatever flows
//! through a variable or an expression, and an argument typed `any`, a colour, a boolean, a
//! table or a function, is left alone, so the lint may miss a mistake, never report one that
//! is not there.

use super::source::{Source, Span};
use full_moon::ast::{Expression, FunctionArgs, UnOp};
use full_moon::node::Node;
use full_moon::tokenizer::{Symbol, TokenType};
use ludus_content::Diagnostic;
use ludus_script::{API, type_words};

/// What an argument is, as far as a literal says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lit {
    Nil,
    Boolean,
    /// A number literal with a whole value (`3`, `-2`, `2.0`, `0x10`).
    Whole,
    /// A number literal with a fraction (`2.5`).
    Fraction,
    String,
    Table,
    Function,
    /// Anything else: a variable, a call, an operation (not judged).
    Unknown,
}

impl Lit {
    fn noun(self) -> &'static str {
        match self {
            Lit::Nil => "nil",
            Lit::Boolean => "a boolean",
            Lit::Whole => "a whole number",
            Lit::Fraction => "a number with a fraction",
            Lit::String => "a string",
            Lit::Table => "a table",
            Lit::Function => "a function",
            Lit::Unknown => "a value",
        }
    }
}

/// One argument written in a call, with where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arg {
    pub lit: Lit,
    pub span: Span,
}

/// A call `ludus.X(...)` with its arguments as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiCall {
    pub function: String,
    /// The function's name where the call writes it.
    pub span: Span,
    pub args: Vec<Arg>,
    /// The last argument may stand for several values (a call or `...`): how many the call
    /// passes is not known.
    pub open_end: bool,
}

fn span_of(node: &impl Node) -> Span {
    node.range().map_or(Span::default(), |(a, b)| Span {
        start: a.bytes(),
        end: b.bytes(),
    })
}

/// A number literal's kind; `None` when Rust does not read it as Lua does (left unjudged).
fn number(text: &str) -> Option<Lit> {
    let t = text.to_ascii_lowercase();
    if let Some(hex) = t.strip_prefix("0x") {
        // Hexadecimal integers; hexadecimal floats (`0x1p4`, `0x.8`) are left alone.
        return hex
            .bytes()
            .all(|b| b.is_ascii_hexdigit())
            .then_some(Lit::Whole);
    }
    let v: f64 = t.parse().ok()?;
    Some(if v.is_finite() && v.fract() != 0.0 {
        Lit::Fraction
    } else {
        Lit::Whole
    })
}

fn lit(e: &Expression) -> Lit {
    match e {
        Expression::Number(t) => number(&t.token().to_string()).unwrap_or(Lit::Unknown),
        Expression::String(_) => Lit::String,
        Expression::TableConstructor(_) => Lit::Table,
        Expression::Function(_) => Lit::Function,
        Expression::Symbol(t) => match t.token().token_type() {
            TokenType::Symbol {
                symbol: Symbol::Nil,
            } => Lit::Nil,
            TokenType::Symbol {
                symbol: Symbol::True | Symbol::False,
            } => Lit::Boolean,
            _ => Lit::Unknown,
        },
        Expression::UnaryOperator {
            unop: UnOp::Minus(_),
            expression,
        } if matches!(**expression, Expression::Number(_)) => lit(expression),
        Expression::Parentheses { expression, .. } => match lit(expression) {
            // `(f())` is one value, of a kind not known here.
            Lit::Unknown => Lit::Unknown,
            l => l,
        },
        _ => Lit::Unknown,
    }
}

/// Whether an expression may stand for several values as a call's last argument.
fn open(e: &Expression) -> bool {
    match e {
        Expression::FunctionCall(_) => true,
        Expression::Symbol(t) => matches!(
            t.token().token_type(),
            TokenType::Symbol {
                symbol: Symbol::Ellipsis
            }
        ),
        _ => false,
    }
}

/// The arguments of a call as written.
pub fn call_args(args: &FunctionArgs) -> (Vec<Arg>, bool) {
    match args {
        FunctionArgs::Parentheses { arguments, .. } => {
            let list: Vec<Arg> = arguments
                .iter()
                .map(|e| Arg {
                    lit: lit(e),
                    span: span_of(e),
                })
                .collect();
            (list, arguments.iter().last().is_some_and(open))
        }
        FunctionArgs::String(t) => (
            vec![Arg {
                lit: Lit::String,
                span: span_of(t),
            }],
            false,
        ),
        FunctionArgs::TableConstructor(t) => (
            vec![Arg {
                lit: Lit::Table,
                span: span_of(t),
            }],
            false,
        ),
        _ => (Vec::new(), true),
    }
}

/// What a type accepts of the literals judged: `None` when it is not judged (a literal of any
/// kind may be right).
fn accepts(ty: &str) -> Option<Vec<Lit>> {
    let mut ok = Vec::new();
    for part in ty.split('|').map(str::trim) {
        if part.ends_with('?') {
            ok.push(Lit::Nil);
        }
        if part.trim_end_matches('?').ends_with("[]") {
            ok.push(Lit::Table);
            continue;
        }
        for word in type_words(part) {
            match word {
                "integer" | "id" | "timer_id" | "tags" => ok.push(Lit::Whole),
                "number" => ok.extend([Lit::Whole, Lit::Fraction]),
                "string" | "archetype" | "effect" | "sound" | "music" | "level" | "cooldown"
                | "animation" | "action" | "tag" | "constant" | "variable" | "behaviour" => {
                    ok.push(Lit::String)
                }
                "nil" => ok.push(Lit::Nil),
                // Anything else (`any`, a colour, a boolean, a table, an option table...):
                // not judged.
                _ => return None,
            }
        }
    }
    Some(ok)
}

/// What a type asks for, in words: `an integer`, `the name of a sound or nil`.
fn wanted(ty: &str) -> String {
    let words: Vec<String> = ty
        .split('|')
        .map(str::trim)
        .map(|part| {
            let nil = if part.ends_with('?') { " or nil" } else { "" };
            let base = part.trim_end_matches('?');
            let what = match base {
                _ if base.ends_with("[]") => "an array".to_string(),
                "integer" => "an integer".into(),
                "number" => "a number".into(),
                "id" => "an entity id".into(),
                "timer_id" => "a timer id".into(),
                "tags" => "a tag set".into(),
                "string" => "a string".into(),
                "nil" => "nil".into(),
                "variable" => "a variable's name".into(),
                word => {
                    let a = if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
                        "an"
                    } else {
                        "a"
                    };
                    format!("the name of {a} {word}")
                }
            };
            format!("{what}{nil}")
        })
        .collect();
    words.join(" or ")
}

/// The lint of one call: each literal argument of a kind its type refuses, and a required
/// argument left out.
pub fn check(source: &Source, call: &ApiCall) -> Vec<Diagnostic> {
    // Functions the prelude writes in Lua check their arguments their own way.
    let Some(f) = API.iter().find(|a| a.name == call.function && !a.lua) else {
        return Vec::new();
    };
    let signature = f.signature();
    let mut out = Vec::new();
    for (i, p) in signature.params.iter().enumerate() {
        if p.name == "..." {
            break;
        }
        let Some(mut ok) = accepts(p.ty) else {
            continue;
        };
        if p.optional {
            ok.push(Lit::Nil);
        }
        match call.args.get(i) {
            Some(a) if a.lit != Lit::Unknown && !ok.contains(&a.lit) => {
                let message = format!(
                    "`ludus.{}`'s `{}` must be {}, and this is {}",
                    f.name,
                    p.name,
                    wanted(p.ty),
                    a.lit.noun()
                );
                out.push(
                    source
                        .at(a.span, message)
                        .with_help(format!("the call is `ludus.{}`", f.call))
                        .with_code("argument-type"),
                );
            }
            None if !call.open_end && !ok.contains(&Lit::Nil) => {
                let message = format!(
                    "`ludus.{}` needs `{}` ({}), and this call gives {}",
                    f.name,
                    p.name,
                    wanted(p.ty),
                    given(call.args.len())
                );
                out.push(
                    source
                        .at(call.span, message)
                        .with_help(format!("the call is `ludus.{}`", f.call))
                        .with_code("argument-type"),
                );
                break;
            }
            _ => {}
        }
    }
    out
}

fn given(n: usize) -> String {
    match n {
        0 => "none".into(),
        1 => "1 argument".into(),
        n => format!("{n} arguments"),
    }
}
