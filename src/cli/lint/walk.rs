//! One pass over a parsed script: what it defines and what it names, with byte spans.
//!
//! Only direct uses are collected: `ludus.X(...)` and `ludus.X`, `ludus.const.Y`, string
//! literals passed straight to a name argument (`ludus.spawn("bullet", ...)`), `require("m")`,
//! and global functions (`function on_x()`, `on_x = function`). A name a local shadows
//! (`local ludus = ...`, a parameter called `require`) is not the global, and whatever flows
//! through a variable or an expression is not followed: the lints built on these facts may
//! miss a mistake, never report one that is not there.

use full_moon::ast::{
    Assignment, Block, Call, Expression, FunctionArgs, FunctionBody, FunctionCall,
    FunctionDeclaration, GenericFor, Index, LocalAssignment, LocalFunction, NumericFor, Parameter,
    Prefix, Suffix, Var, VarExpression,
};
use full_moon::tokenizer::{StringLiteralQuoteType, TokenReference, TokenType};
use full_moon::visitors::Visitor;
use ludus_script::{NAME_ARGS, NameKind};
use std::collections::{HashMap, HashSet};

pub use super::source::Span;

/// A name with where it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Named {
    pub name: String,
    pub span: Span,
}

/// A string literal passed where a `ludus.*` function takes a declared name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameUse {
    pub kind: NameKind,
    /// The literal's text; its span covers the quotes.
    pub name: Named,
}

/// What one script defines and names, in source order within each list.
#[derive(Debug, Default)]
pub struct Facts {
    /// Global functions: `function NAME()` or `NAME = function ... end`, at any depth.
    pub global_functions: Vec<Named>,
    /// Global names read or called anywhere other than where a global function is defined.
    pub used_globals: HashSet<String>,
    /// Whether the script assigns the global `ludus` itself (`ludus = {}`): then what it
    /// calls through `ludus` is its own business.
    pub ludus_replaced: bool,
    /// `X` of every `ludus.X` (called or not).
    pub api: Vec<Named>,
    /// Fields the script puts in its own `ludus` table (`function ludus.X()`, `ludus.X = v`).
    pub api_defined: HashSet<String>,
    pub names: Vec<NameUse>,
    /// `Y` of every `ludus.const.Y`.
    pub constants: Vec<Named>,
    /// The module name of every `require("m")` / `require "m"`.
    pub requires: Vec<Named>,
    /// Every call `ludus.X(...)`, with its arguments as written.
    pub calls: Vec<super::args::ApiCall>,
    /// The variable names `ludus.set` is called with as string literals.
    pub variables_set: Vec<String>,
    /// Whether `ludus.set` is called with a name that is not a string literal (a name the
    /// lints cannot know).
    pub variables_set_computed: bool,
}

/// Collects [`Facts`] from a whole chunk.
pub fn facts(ast: &full_moon::ast::Ast) -> Facts {
    let mut walk = Walk::default();
    walk.visit_ast(ast);
    walk.facts
}

#[derive(Default)]
struct Walk {
    facts: Facts,
    /// The local names each scope open at this point declares, innermost last.
    scopes: Vec<Vec<String>>,
    /// How many declarations in open scopes each name has: a name is local when it has an
    /// entry (one look per name, however deep the scopes).
    locals: HashMap<String, usize>,
    /// Where the names that `NAME = function` defines are written (byte starts), so that
    /// writing them is not counted as a use.
    definitions: HashSet<usize>,
}

/// An identifier token's name.
fn ident(token: &TokenReference) -> Option<&str> {
    match token.token().token_type() {
        TokenType::Identifier { identifier } => Some(identifier.as_str()),
        _ => None,
    }
}

fn span(token: &TokenReference) -> Span {
    Span {
        start: token.token().start_position().bytes(),
        end: token.token().end_position().bytes(),
    }
}

fn named(token: &TokenReference) -> Option<Named> {
    Some(Named {
        name: ident(token)?.to_string(),
        span: span(token),
    })
}

/// The text of a quoted string literal without escapes: what Lua reads it as. `None` for
/// anything else (a long bracket string, an escape sequence, not a string).
fn literal(expression: &Expression) -> Option<Named> {
    let Expression::String(token) = expression else {
        return None;
    };
    literal_token(token)
}

fn literal_token(token: &TokenReference) -> Option<Named> {
    match token.token().token_type() {
        TokenType::StringLiteral {
            literal,
            quote_type: StringLiteralQuoteType::Double | StringLiteralQuoteType::Single,
            ..
        } if !literal.contains('\\') => Some(Named {
            name: literal.to_string(),
            span: span(token),
        }),
        _ => None,
    }
}

/// The argument at `index` of a call, when it is written there as an expression.
fn argument(args: &FunctionArgs, index: usize) -> Option<Named> {
    match args {
        FunctionArgs::Parentheses { arguments, .. } => literal(arguments.iter().nth(index)?),
        FunctionArgs::String(token) if index == 0 => literal_token(token),
        _ => None,
    }
}

impl Walk {
    fn is_local(&self, name: &str) -> bool {
        self.locals.contains_key(name)
    }

    /// The global called `name`, not shadowed by a local, written as `token`.
    fn global(&self, token: &TokenReference, name: &str) -> bool {
        ident(token) == Some(name) && !self.is_local(name)
    }

    fn declare(&mut self, token: &TokenReference) {
        if let Some(name) = ident(token) {
            self.declare_name(name.to_string());
        }
    }

    /// `name` is local in the innermost scope (each declaration counted, undone when the
    /// scope closes).
    fn declare_name(&mut self, name: String) {
        if let Some(scope) = self.scopes.last_mut() {
            *self.locals.entry(name.clone()).or_default() += 1;
            scope.push(name);
        }
    }

    fn open(&mut self, names: impl IntoIterator<Item = String>) {
        self.scopes.push(Vec::new());
        for name in names {
            self.declare_name(name);
        }
    }

    fn close(&mut self) {
        for name in self.scopes.pop().unwrap_or_default() {
            if let Some(count) = self.locals.get_mut(&name) {
                *count -= 1;
                if *count == 0 {
                    self.locals.remove(&name);
                }
            }
        }
    }

    /// `ludus.X...` and `require(...)` as a prefix followed by suffixes (a call or a variable).
    fn chain<'a>(&mut self, prefix: &Prefix, mut suffixes: impl Iterator<Item = &'a Suffix>) {
        let Prefix::Name(head) = prefix else {
            return;
        };
        if self.global(head, "require") {
            if let Some(Suffix::Call(Call::AnonymousCall(args))) = suffixes.next()
                && let Some(module) = argument(args, 0)
            {
                self.facts.requires.push(module);
            }
            return;
        }
        if !self.global(head, "ludus") {
            return;
        }
        let Some(Suffix::Index(Index::Dot { name, .. })) = suffixes.next() else {
            return;
        };
        let Some(field) = named(name) else {
            return;
        };
        match suffixes.next() {
            Some(Suffix::Index(Index::Dot { name, .. })) if field.name == "const" => {
                self.facts.constants.extend(named(name));
            }
            Some(Suffix::Call(Call::AnonymousCall(args))) => {
                let (list, open_end) = super::args::call_args(args);
                self.facts.calls.push(super::args::ApiCall {
                    function: field.name.clone(),
                    span: field.span,
                    args: list,
                    open_end,
                });
                if field.name == "set" {
                    match argument(args, 0) {
                        Some(name) => self.facts.variables_set.push(name.name),
                        None => self.facts.variables_set_computed = true,
                    }
                }
                for (function, index, kind) in NAME_ARGS {
                    if *function == field.name
                        && let Some(name) = argument(args, *index)
                    {
                        self.facts.names.push(NameUse { kind: *kind, name });
                    }
                }
            }
            _ => {}
        }
        self.facts.api.push(field);
    }

    fn use_global(&mut self, token: &TokenReference) {
        if let Some(name) = ident(token)
            && !self.definitions.contains(&span(token).start)
            && !self.is_local(name)
        {
            self.facts.used_globals.insert(name.to_string());
        }
    }
}

impl Visitor for Walk {
    fn visit_block(&mut self, _: &Block) {
        self.open([]);
    }

    fn visit_block_end(&mut self, _: &Block) {
        self.close();
    }

    fn visit_function_body(&mut self, body: &FunctionBody) {
        let parameters = body.parameters().iter().filter_map(|p| match p {
            Parameter::Name(token) => ident(token).map(str::to_string),
            _ => None,
        });
        self.open(parameters.collect::<Vec<_>>());
    }

    fn visit_function_body_end(&mut self, _: &FunctionBody) {
        self.close();
    }

    fn visit_numeric_for(&mut self, f: &NumericFor) {
        self.open(ident(f.index_variable()).map(str::to_string));
    }

    fn visit_numeric_for_end(&mut self, _: &NumericFor) {
        self.close();
    }

    fn visit_generic_for(&mut self, f: &GenericFor) {
        self.open(
            f.names()
                .iter()
                .filter_map(|n| ident(n).map(str::to_string)),
        );
    }

    fn visit_generic_for_end(&mut self, _: &GenericFor) {
        self.close();
    }

    fn visit_local_assignment(&mut self, local: &LocalAssignment) {
        for name in local.names() {
            self.declare(name);
        }
    }

    fn visit_local_function(&mut self, local: &LocalFunction) {
        self.declare(local.name());
    }

    fn visit_function_declaration(&mut self, declaration: &FunctionDeclaration) {
        let name = declaration.name();
        let mut names = name.names().iter();
        let (Some(head), second) = (names.next(), names.next()) else {
            return;
        };
        match second.or(name.method_name()) {
            None => {
                if let Some(n) = named(head)
                    && !self.is_local(&n.name)
                {
                    self.facts.global_functions.push(n);
                }
            }
            // `function ludus.X()` or `function ludus:X()`.
            Some(field) if self.global(head, "ludus") => {
                if let Some(field) = ident(field) {
                    self.facts.api_defined.insert(field.to_string());
                }
            }
            Some(_) => {}
        }
    }

    fn visit_assignment(&mut self, assignment: &Assignment) {
        let values = assignment
            .expressions()
            .iter()
            .map(Some)
            .chain(std::iter::repeat(None));
        for (var, value) in assignment.variables().iter().zip(values) {
            match var {
                Var::Name(token) if self.global(token, "ludus") => {
                    self.facts.ludus_replaced = true;
                }
                Var::Name(token) if matches!(value, Some(Expression::Function(_))) => {
                    if let Some(n) = named(token)
                        && !self.is_local(&n.name)
                    {
                        self.definitions.insert(n.span.start);
                        self.facts.global_functions.push(n);
                    }
                }
                Var::Expression(e) => {
                    let mut suffixes = e.suffixes();
                    if let (Prefix::Name(head), Some(Suffix::Index(Index::Dot { name, .. })), None) =
                        (e.prefix(), suffixes.next(), suffixes.next())
                        && self.global(head, "ludus")
                        && let Some(field) = ident(name)
                    {
                        self.facts.api_defined.insert(field.to_string());
                    }
                }
                _ => {}
            }
        }
    }

    fn visit_function_call(&mut self, call: &FunctionCall) {
        self.chain(call.prefix(), call.suffixes());
    }

    fn visit_var_expression(&mut self, var: &VarExpression) {
        self.chain(var.prefix(), var.suffixes());
    }

    fn visit_var(&mut self, var: &Var) {
        if let Var::Name(token) = var {
            self.use_global(token);
        }
    }

    fn visit_prefix(&mut self, prefix: &Prefix) {
        if let Prefix::Name(token) = prefix {
            self.use_global(token);
        }
    }
}
