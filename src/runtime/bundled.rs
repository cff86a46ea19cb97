//! The bundled game, embedded in the binary: examples/swarm unless the build named another
//! folder (`LUDUS_GAME_DIR`, see build.rs).

use crate::runtime::project::Project;
use std::collections::BTreeMap;

include!(concat!(env!("OUT_DIR"), "/bundled.rs"));

/// The bundled example's files, by path relative to its folder.
pub fn files() -> BTreeMap<String, Vec<u8>> {
    FILES
        .iter()
        .map(|(p, b)| (p.to_string(), b.to_vec()))
        .collect()
}

/// The bundled example, loaded.
pub fn project() -> Result<Project, String> {
    Project::from_files(&format!("{NAME} (bundled)"), files())
}
