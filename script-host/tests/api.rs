//! The `ludus` table holds exactly the functions of the API list, and a name outside it is a
//! fault naming the closest function.

mod support;

use support::*;

#[test]
fn the_ludus_table_is_the_api_list() {
    let mut g = game(
        "function on_start() \
           local names = {} \
           for k in pairs(ludus) do names[#names + 1] = k end \
           table.sort(names) \
           print(table.concat(names, ',')) \
         end",
    )
    .unwrap();
    run(&mut g, 1).unwrap();
    let lines = g.consequences_mut().drain_log();
    let mut listed: Vec<&str> = ludus_script::API.iter().map(|f| f.name).collect();
    listed.sort();
    assert_eq!(
        lines,
        vec![format!("[tick 1] scripts/main.lua:1: {}", listed.join(","))]
    );
}

#[test]
fn a_misspelt_function_names_the_closest() {
    let f = game("function on_start()\n  ludus.destory(1)\nend")
        .and_then(|mut g| run(&mut g, 1))
        .unwrap_err();
    assert_eq!(
        f.message,
        "ludus.destory does not exist (did you mean ludus.destroy?)"
    );
    assert_eq!(f.location.as_deref(), Some("scripts/main.lua:2"));
    let f = game("x = ludus.nothing_like_it")
        .and_then(|mut g| run(&mut g, 1))
        .unwrap_err();
    assert!(
        f.message
            .starts_with("ludus.nothing_like_it does not exist"),
        "{f}"
    );
    assert_eq!(f.location.as_deref(), Some("scripts/main.lua:1"));
}
