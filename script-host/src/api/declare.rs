//! The macros that turn the `api!` list of `functions.rs` into [`API`](super::functions::API)
//! and the registration of each function (see `functions.rs` for the entry forms). They
//! expand there, so the names they call (`charge`, `caller`, `outside`, `malformed`...) are
//! the ones `functions.rs` imports.

/// Registers one function that needs the running stage. The work a read reports (entities
/// and cells visited) is charged to the budget after the call, one unit each.
macro_rules! register {
    ($lua:ident, $raw:ident, $shared:ident, $name:expr, |$l:ident, $g:ident, $a:ident: $ty:ty| -> $ret:ty $body:block) => {{
        let s = $shared.clone();
        let name: &'static str = $name;
        let f = $lua.create_function(move |$l, $a: $ty| -> mlua::Result<$ret> {
            charge($l, &s, &[])?;
            let result = s.stage.with(|$g| {
                let body = |$g: &mut ludus_core::Gameplay<'_>| -> Result<$ret, Bad> { $body };
                let r = body($g);
                (r, $g.take_work())
            });
            match result {
                None => Err(outside(name)),
                Some((r, work)) => {
                    if work > 0 {
                        s.budget.charge($l, work, || caller($l))?;
                    }
                    r.map_err(|bad| malformed($l, &s, name, bad))
                }
            }
        })?;
        $raw.raw_set(name, f)?;
    }};
}

macro_rules! api {
    // `fast call`, `fast grid` and `fast census` (what each needs: see `fast::Needs`).
    (@needs call) => { Needs::Nothing };
    (@needs grid) => { Needs::Grid };
    (@needs census) => { Needs::Census };
    (@munch [$($spec:tt)*] [$($inst:tt)*] [$($fast:tt)*]) => {
        /// Every `ludus.*` function, in the order the docs list them.
        pub const API: &[ApiFunction] = &[$($spec)*];

        /// The commands with a fast entry (see [`fast`](super::fast)), in the order of [`API`].
        pub(crate) const FAST: &[Fast] = &[$($fast)*];

        /// Creates the API's Rust functions into `raw` under their names, plus the internal
        /// ones (`__log`, `__timer_live`), and the fast commands' entries.
        pub fn install(lua: &Lua, raw: &Table, shared: &Rc<Shared>) -> mlua::Result<()> {
            install_log(lua, raw, shared)?;
            $( api!(@register lua raw shared $inst); )*
            super::fast::install(lua, raw, shared, FAST)
        }
    };
    (@munch [$($spec:tt)*] [$($inst:tt)*] [$($fast:tt)*]
        #[doc = $doc:literal] command $name:ident: $call:literal,
        |$l:ident, $g:ident, $a:ident: $ty:ty| $body:block $($rest:tt)*) => {
        api!(@munch
            [$($spec)* ApiFunction { name: stringify!($name), call: $call, section: Section::Command, lua: false, doc: $doc, name_arg: <$ty as Signature>::NAME_ARG },]
            [$($inst)* { stringify!($name), |$l, $g, $a: $ty| -> Value {
                let command: Command = $body;
                $g.send(command)?;
                Ok(Value::Nil)
            } }]
            [$($fast)*]
            $($rest)*);
    };
    (@munch [$($spec:tt)*] [$($inst:tt)*] [$($fast:tt)*]
        #[doc = $doc:literal] fast command $name:ident: $call:literal,
        |$g:ident, $a:ident: $ty:ty| $body:block $($rest:tt)*) => {
        api!(@munch
            [$($spec)* ApiFunction { name: stringify!($name), call: $call, section: Section::Command, lua: false, doc: $doc, name_arg: <$ty as Signature>::NAME_ARG },]
            [$($inst)* { stringify!($name), |lua, $g, $a: $ty| -> Value {
                let command: Command = $body;
                $g.send(command)?;
                Ok(Value::Nil)
            } }]
            [$($fast)* Fast {
                name: stringify!($name),
                run: |$g: &mut ludus_core::Gameplay<'_>, args: &ludus_lua::Args<'_>, _out: &mut Results<'_>| -> Result<(), Bad> {
                    let $a = <$ty as FastArgs>::take(args);
                    let command: Command = $body;
                    $g.send(command)?;
                    Ok(())
                },
                needs: Needs::Nothing,
            },]
            $($rest)*);
    };
    // `fast call`, `fast grid` and `fast census`; the body may also ask where the script called it: `$at()`
    // gives `file:line`.
    (@munch [$($spec:tt)*] [$($inst:tt)*] [$($fast:tt)*]
        #[doc = $doc:literal] fast $kind:ident $name:ident: $section:ident, $call:literal,
        |$g:ident, $a:ident: $ty:ty, $at:ident| -> $ret:ty $body:block $($rest:tt)*) => {
        api!(@munch
            [$($spec)* ApiFunction { name: stringify!($name), call: $call, section: Section::$section, lua: false, doc: $doc, name_arg: <$ty as Signature>::NAME_ARG },]
            [$($inst)* { stringify!($name), |lua, $g, $a: $ty| -> $ret {
                let $at = &|| caller(lua);
                $body
            } }]
            [$($fast)* Fast {
                name: stringify!($name),
                run: |$g: &mut ludus_core::Gameplay<'_>, args: &ludus_lua::Args<'_>, out: &mut Results<'_>| -> Result<(), Bad> {
                    let $at = &|| args.caller();
                    let $a = <$ty as FastArgs>::take(args);
                    let body = |$g: &mut ludus_core::Gameplay<'_>| -> Result<$ret, Bad> { $body };
                    if body($g)?.give(out) {
                        Ok(())
                    } else {
                        Err(Bad::from("not a plain value"))
                    }
                },
                needs: api!(@needs $kind),
            },]
            $($rest)*);
    };
    (@munch [$($spec:tt)*] [$($inst:tt)*] [$($fast:tt)*]
        #[doc = $doc:literal] fast $kind:ident $name:ident: $section:ident, $call:literal,
        |$g:ident, $a:ident: $ty:ty| -> $ret:ty $body:block $($rest:tt)*) => {
        api!(@munch [$($spec)*] [$($inst)*] [$($fast)*]
            #[doc = $doc] fast $kind $name: $section, $call, |$g, $a: $ty, _at| -> $ret $body
            $($rest)*);
    };
    (@munch [$($spec:tt)*] [$($inst:tt)*] [$($fast:tt)*]
        #[doc = $doc:literal] call $name:ident: Internal, $call:literal,
        |$l:ident, $g:ident, $a:ident: $ty:ty| -> $ret:ty $body:block $($rest:tt)*) => {
        api!(@munch
            [$($spec)*]
            [$($inst)* { stringify!($name), |$l, $g, $a: $ty| -> $ret $body }]
            [$($fast)*]
            $($rest)*);
    };
    (@munch [$($spec:tt)*] [$($inst:tt)*] [$($fast:tt)*]
        #[doc = $doc:literal] call $name:ident: $section:ident, $call:literal,
        |$l:ident, $g:ident, $a:ident: $ty:ty| -> $ret:ty $body:block $($rest:tt)*) => {
        api!(@munch
            [$($spec)* ApiFunction { name: stringify!($name), call: $call, section: Section::$section, lua: false, doc: $doc, name_arg: <$ty as Signature>::NAME_ARG },]
            [$($inst)* { stringify!($name), |$l, $g, $a: $ty| -> $ret $body }]
            [$($fast)*]
            $($rest)*);
    };
    (@munch [$($spec:tt)*] [$($inst:tt)*] [$($fast:tt)*]
        #[doc = $doc:literal] lua $name:ident: $section:ident, $call:literal, args: $ty:tt $($rest:tt)*) => {
        api!(@munch
            [$($spec)* ApiFunction { name: stringify!($name), call: $call, section: Section::$section, lua: true, doc: $doc, name_arg: <$ty as Signature>::NAME_ARG },]
            [$($inst)*]
            [$($fast)*]
            $($rest)*);
    };
    (@munch [$($spec:tt)*] [$($inst:tt)*] [$($fast:tt)*]
        #[doc = $doc:literal] lua $name:ident: $section:ident, $call:literal $($rest:tt)*) => {
        api!(@munch
            [$($spec)* ApiFunction { name: stringify!($name), call: $call, section: Section::$section, lua: true, doc: $doc, name_arg: None },]
            [$($inst)*]
            [$($fast)*]
            $($rest)*);
    };
    (@register $lua:ident $raw:ident $shared:ident
        { $name:expr, |$l:ident, $g:ident, $a:ident: $ty:ty| -> $ret:ty $body:block }) => {
        register!($lua, $raw, $shared, $name, |$l, $g, $a: $ty| -> $ret $body)
    };
    ($($entries:tt)*) => {
        api!(@munch [] [] [] $($entries)*);
    };
}
