//! Game variables: named numbers or texts that scripts set, the HUD shows and the state hash
//! covers.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// A game variable's value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Var {
    Num(f64),
    Text(Arc<str>),
}

impl Var {
    /// The number, if the variable holds one.
    pub fn num(&self) -> Option<f64> {
        match self {
            Var::Num(v) => Some(*v),
            Var::Text(_) => None,
        }
    }
}

impl fmt::Display for Var {
    /// As the HUD shows it: whole numbers without a fraction, others with two decimals.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Var::Num(v) if v.fract() == 0.0 && v.abs() < 1e15 => write!(f, "{}", *v as i64),
            Var::Num(v) => write!(f, "{v:.2}"),
            Var::Text(t) => f.write_str(t),
        }
    }
}
