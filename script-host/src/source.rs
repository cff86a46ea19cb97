//! What a host runs: script files, and where `require` finds modules.

/// Where `require` finds modules: paths relative to the game folder, already checked not to
/// leave it.
pub trait ModuleSource {
    fn read(&self, path: &str) -> Result<String, String>;
}

/// A script file: its path in the game folder and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Script {
    pub path: String,
    pub text: String,
}
