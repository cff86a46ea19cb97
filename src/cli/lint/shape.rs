//! Whether the script parser can read a file, decided from its tokens before it is parsed.
//!
//! full_moon builds, walks and drops its syntax tree by recursion, and its tree takes about half
//! a kilobyte per token: `((((...))))` a hundred thousand deep, or `1 + 1 + ...` a million
//! times, overflows any thread's stack, and an 8 MB script takes seconds and gigabytes. So a
//! file is parsed only when both bounds hold, each measured in one pass over the tokens
//! (linear time, nothing kept per token):
//!
//! - at most [`MAX_TOKENS`] tokens (words, numbers, strings and symbols; not spaces or
//!   comments);
//! - at most [`STACK_BUDGET`] bytes of parser stack by the estimate below, at every token;
//! - at most [`MAX_INDEX_WORK`] tokens inside index brackets (`a[...]`), each counted once per
//!   bracket around it: at each index the parser looks for the last token of the expression
//!   inside by walking down its right edge, so `a[a[a[...]]]` takes time in proportion to the
//!   square of its depth (0.4 s for 1,365 levels, optimized).
//!
//! The estimate: each open block (`function`, `do`, `then`, `repeat`, until its `end`,
//! `until` or `elseif`) and bracket (`(`, `[`, `{`) costs what one level of it takes, and
//! within each, every operator since the last point where an expression cannot continue (`,`,
//! `;`, `=`, a statement's keyword) costs what one more level of its expression takes (a left
//! operand's chain is a tree as deep as it is long). The costs are measured in an unoptimized
//! build, which takes about three times the stack of an optimized one; the parser runs on a
//! thread of [`PARSER_STACK`] bytes, twice the budget. Lua itself allows about 200 levels of
//! nesting, which fits in a tenth of the budget, so only long operator chains (over about
//! 100,000 operators in one expression) and files Lua refuses go unparsed.

use super::walk::Span;
use full_moon::LuaVersion;
use full_moon::tokenizer::{Lexer, LexerResult, Symbol, Token, TokenType};

/// The most tokens a file the linter parses may have.
pub const MAX_TOKENS: usize = 200_000;

/// The most parser stack, by the estimate, a file the linter parses may need at any point.
pub const STACK_BUDGET: usize = 32 << 20;

/// The most tokens inside index brackets, summed over the brackets.
pub const MAX_INDEX_WORK: usize = 1_000_000;

/// The stack of the thread that parses and walks a file.
pub const PARSER_STACK: usize = 2 * STACK_BUDGET;

/// Stack bytes per level of a block: `function` (the most, measured), `do`, `then`, `repeat`.
const BLOCK: usize = 64 << 10;
/// Per level of a bracket: `{` (the most, measured), `(`, `[`.
const BRACKET: usize = 24 << 10;
/// Per unary operator: `not`, `#`, `-`, `~` before an operand.
const UNARY: usize = 16 << 10;
/// Per right-associative operator: `..`, `^` (the parser recurses on the right operand).
const RIGHT: usize = 6 << 10;
/// Per other binary operator (the parser loops; the tree's walk and drop recurse).
const LEFT: usize = 256;

/// Why the parser cannot read a file, and the token where the bound was passed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooLarge {
    pub span: Span,
    pub why: Bound,
}

/// Which bound a file passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// More than [`MAX_TOKENS`] tokens.
    Tokens,
    /// Nested (blocks, brackets, operators in one expression) past [`STACK_BUDGET`], or index
    /// brackets past [`MAX_INDEX_WORK`].
    Depth,
}

/// One open block or bracket: what it costs, what the operators of its current expression
/// cost so far, and for an index bracket, the count of tokens before it.
struct Level {
    cost: usize,
    operators: usize,
    index_from: Option<usize>,
}

/// Checks both bounds over `text`'s tokens; the first token past one is the error.
pub fn measure(text: &str) -> Result<(), TooLarge> {
    let mut lexer = Lexer::new_lazy(text, LuaVersion::lua54());
    // The outermost level: the file's own block.
    let mut levels = vec![Level {
        cost: 0,
        operators: 0,
        index_from: None,
    }];
    let mut total = 0usize;
    let mut tokens = 0usize;
    let mut index_work = 0usize;
    let mut last = Span::default();
    let mut after_value = false;
    // Every call reads at least one character or ends the file; the bound makes that a fact.
    for _ in 0..=text.len() + 1 {
        let token = match lexer.process_next() {
            None => break,
            Some(LexerResult::Ok(t) | LexerResult::Recovered(t, _)) => t,
            // A character the lexer does not know: Lua reports it, or the parser does.
            Some(LexerResult::Fatal(_)) => continue,
        };
        if token.token_type().is_trivia() || matches!(token.token_type(), TokenType::Eof) {
            continue;
        }
        tokens += 1;
        let span = Span {
            start: token.start_position().bytes(),
            end: token.end_position().bytes(),
        };
        if tokens > MAX_TOKENS {
            return Err(TooLarge {
                span,
                why: Bound::Tokens,
            });
        }
        last = span;
        match step(&token, after_value) {
            Step::Open(cost) => {
                // `[` after a value indexes it; elsewhere it opens a table field's key.
                let index = matches!(
                    token.token_type(),
                    TokenType::Symbol {
                        symbol: Symbol::LeftBracket
                    }
                ) && after_value;
                levels.push(Level {
                    cost,
                    operators: 0,
                    index_from: index.then_some(tokens),
                });
                total += cost;
            }
            Step::Close { reset } => {
                if levels.len() > 1
                    && let Some(level) = levels.pop()
                {
                    total -= level.cost + level.operators;
                    index_work += level.index_from.map_or(0, |from| tokens - from);
                }
                if reset {
                    end_expression(&mut levels, &mut total);
                }
            }
            Step::Operator(cost) => {
                if let Some(level) = levels.last_mut() {
                    level.operators += cost;
                    total += cost;
                }
            }
            Step::EndExpression => end_expression(&mut levels, &mut total),
            Step::Other => {}
        }
        if total > STACK_BUDGET || index_work > MAX_INDEX_WORK {
            return Err(TooLarge {
                span,
                why: Bound::Depth,
            });
        }
        after_value = ends_value(token.token_type());
    }
    // Index brackets left open cost as much to the parser as closed ones.
    for level in &levels {
        index_work += level.index_from.map_or(0, |from| tokens - from);
    }
    if index_work > MAX_INDEX_WORK {
        return Err(TooLarge {
            span: last,
            why: Bound::Depth,
        });
    }
    Ok(())
}

/// What a token does to the estimate.
enum Step {
    Open(usize),
    /// Closes the innermost level; `reset`: and ends the expression of the one around it.
    Close {
        reset: bool,
    },
    Operator(usize),
    /// No expression continues past it.
    EndExpression,
    Other,
}

fn step(token: &Token, after_value: bool) -> Step {
    let TokenType::Symbol { symbol } = token.token_type() else {
        return Step::Other;
    };
    // `-` and `~` are binary after a value, unary elsewhere.
    let unary_or = |binary| if after_value { binary } else { UNARY };
    match symbol {
        Symbol::Function | Symbol::Do | Symbol::Then | Symbol::Repeat => Step::Open(BLOCK),
        Symbol::LeftParen | Symbol::LeftBracket | Symbol::LeftBrace => Step::Open(BRACKET),
        Symbol::End | Symbol::RightParen | Symbol::RightBracket | Symbol::RightBrace => {
            Step::Close { reset: false }
        }
        Symbol::Until | Symbol::ElseIf => Step::Close { reset: true },
        Symbol::Not | Symbol::Hash => Step::Operator(UNARY),
        Symbol::Minus => Step::Operator(unary_or(LEFT)),
        Symbol::Tilde => Step::Operator(unary_or(LEFT)),
        Symbol::TwoDots | Symbol::Caret => Step::Operator(RIGHT),
        Symbol::And
        | Symbol::Or
        | Symbol::Plus
        | Symbol::Star
        | Symbol::Slash
        | Symbol::DoubleSlash
        | Symbol::Percent
        | Symbol::TwoEqual
        | Symbol::TildeEqual
        | Symbol::LessThan
        | Symbol::LessThanEqual
        | Symbol::GreaterThan
        | Symbol::GreaterThanEqual
        | Symbol::Pipe
        | Symbol::Ampersand
        | Symbol::DoubleLessThan
        | Symbol::DoubleGreaterThan => Step::Operator(LEFT),
        Symbol::Comma
        | Symbol::Semicolon
        | Symbol::Equal
        | Symbol::Else
        | Symbol::In
        | Symbol::Local
        | Symbol::Return
        | Symbol::If
        | Symbol::While
        | Symbol::For
        | Symbol::Break
        | Symbol::Goto
        | Symbol::TwoColons => Step::EndExpression,
        _ => Step::Other,
    }
}

/// The innermost level's expression ends: its operators no longer count.
fn end_expression(levels: &mut [Level], total: &mut usize) {
    if let Some(level) = levels.last_mut() {
        *total -= level.operators;
        level.operators = 0;
    }
}

/// Whether a token can end an operand, so that `-` or `~` after it is binary.
fn ends_value(token: &TokenType) -> bool {
    match token {
        TokenType::Identifier { .. }
        | TokenType::Number { .. }
        | TokenType::StringLiteral { .. } => true,
        TokenType::Symbol { symbol } => matches!(
            symbol,
            Symbol::RightParen
                | Symbol::RightBracket
                | Symbol::RightBrace
                | Symbol::Ellipsis
                | Symbol::True
                | Symbol::False
                | Symbol::Nil
                | Symbol::End
        ),
        _ => false,
    }
}
