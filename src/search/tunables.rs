//! Declared-once tunables: the [`tunables!`](crate::tunables) macro writes a parameter struct
//! from one line per constant (doc, name, type, default, valid range) and gives it its
//! defaults, setting and reading by name, the list of its constants with their ranges (what a
//! tuner such as `scripts/spsa.py` or GTP `kata-list-params` shows) and the text a match record
//! prints of the settings that played.

use std::fmt::Display;

/// One constant of a parameter struct, as its declaration gives it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tunable {
    /// The name it is set by (the field's name).
    pub name: &'static str,
    /// The one-line doc of the field.
    pub doc: &'static str,
    /// The smallest value it takes.
    pub min: f64,
    /// The largest value it takes.
    pub max: f64,
}

/// A tab-separated table of `tunables` (header included): name, the value `value` gives for
/// each (the defaults, say), range and doc; what `sente params` prints.
pub fn table(tunables: &[Tunable], value: impl Fn(&str) -> Option<String>) -> String {
    let mut t = String::from("name\tdefault\tmin\tmax\twhat it does\n");
    for u in tunables {
        let v = value(u.name).unwrap_or_default();
        t.push_str(&format!(
            "{}\t{v}\t{}\t{}\t{}\n",
            u.name,
            u.min,
            u.max,
            u.doc.trim()
        ));
    }
    t
}

/// A value a tunable can hold: read from text, compared with its range.
pub trait TunableValue: Copy + Display + Sized {
    /// The value `text` spells, if it is one of this type.
    fn parse_text(text: &str) -> Option<Self>;
    /// The value on the range's scale.
    fn as_f64(self) -> f64;
}

macro_rules! integer_value {
    ($($t:ty),*) => {$(
        impl TunableValue for $t {
            fn parse_text(text: &str) -> Option<Self> {
                text.parse().ok()
            }
            fn as_f64(self) -> f64 {
                self as f64
            }
        }
    )*};
}
integer_value!(i32, u8, u16, u32, u64, usize);

impl TunableValue for f32 {
    fn parse_text(text: &str) -> Option<Self> {
        text.parse::<f32>().ok().filter(|v| v.is_finite())
    }
    fn as_f64(self) -> f64 {
        self as f64
    }
}

impl TunableValue for f64 {
    fn parse_text(text: &str) -> Option<Self> {
        text.parse::<f64>().ok().filter(|v| v.is_finite())
    }
    fn as_f64(self) -> f64 {
        self
    }
}

/// A switch: `0`/`1` (as a tuner sets it) or `false`/`true`.
impl TunableValue for bool {
    fn parse_text(text: &str) -> Option<Self> {
        match text {
            "0" | "false" => Some(false),
            "1" | "true" => Some(true),
            _ => None,
        }
    }
    fn as_f64(self) -> f64 {
        self as u8 as f64
    }
}

/// `value` read as a `T` within `[min, max]`, or why not (naming `name`).
pub fn parse_in_range<T: TunableValue>(
    name: &str,
    value: &str,
    min: f64,
    max: f64,
) -> Result<T, String> {
    let v = T::parse_text(value.trim())
        .ok_or_else(|| format!("`{name}={value}`: not a value of this setting"))?;
    if !(min..=max).contains(&v.as_f64()) {
        return Err(format!("`{name}={value}`: outside {min} ..= {max}"));
    }
    Ok(v)
}

/// Applies `name=value` items separated by commas or spaces through `set`; the first bad item
/// is the error (the caller keeps its old value: it sets a copy).
pub fn apply_overrides(
    text: &str,
    mut set: impl FnMut(&str, &str) -> Result<(), String>,
) -> Result<(), String> {
    for item in text.split([',', ' ']).filter(|s| !s.is_empty()) {
        let (name, value) = item
            .split_once('=')
            .ok_or_else(|| format!("`{item}`: expected name=value"))?;
        set(name, value)?;
    }
    Ok(())
}

/// Declares a parameter struct, one constant a line:
/// `/// doc` then `name: type = default, min ..= max;`, and at the end at most one
/// `nested` `/// doc` `name: Type;`, a parameter struct of its own whose names this one also
/// answers to. The struct gets `Default`, `TUNABLES` (its own constants' names, docs and
/// ranges; `all_tunables` adds the nested ones), `set`/`get` by name, `with_overrides` (a
/// `name=value` list) and `settings_text` / `changed_from` (for records).
#[macro_export]
macro_rules! tunables {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                #[doc = $doc:literal]
                $field:ident : $ty:ty = $default:expr, $min:literal ..= $max:literal;
            )*
            $(
                nested
                #[doc = $ndoc:literal]
                $nfield:ident : $nty:ty;
            )?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq)]
        pub struct $name {
            $(
                #[doc = $doc]
                pub $field: $ty,
            )*
            $(
                #[doc = $ndoc]
                pub $nfield: $nty,
            )?
        }

        impl Default for $name {
            fn default() -> Self {
                $name {
                    $( $field: $default, )*
                    $( $nfield: <$nty>::default(), )?
                }
            }
        }

        impl $name {
            /// This struct's own constants with their docs and ranges, in declaration order.
            pub const TUNABLES: &'static [$crate::search::tunables::Tunable] = &[
                $(
                    $crate::search::tunables::Tunable {
                        name: stringify!($field),
                        doc: $doc,
                        min: $min as f64,
                        max: $max as f64,
                    },
                )*
            ];

            /// Every constant it answers to: its own, then the nested set's.
            pub fn all_tunables() -> Vec<$crate::search::tunables::Tunable> {
                #[allow(unused_mut)]
                let mut all = Self::TUNABLES.to_vec();
                $( all.extend(<$nty>::all_tunables()); )?
                all
            }

            /// Sets the constant `name` to `value`; an unknown name or a value of the wrong
            /// type or outside the range is an error and changes nothing.
            pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
                match name {
                    $(
                        stringify!($field) => {
                            self.$field = $crate::search::tunables::parse_in_range::<$ty>(
                                name, value, $min as f64, $max as f64,
                            )?;
                            Ok(())
                        }
                    )*
                    _ => {
                        $( return self.$nfield.set(name, value); )?
                        #[allow(unreachable_code)]
                        Err(format!("`{name}`: no such setting"))
                    }
                }
            }

            /// [`Self::set`] for a name this struct answers to; `None` for any other name (it
            /// is someone else's setting).
            #[allow(dead_code)]
            pub fn set_known(&mut self, name: &str, value: &str) -> Option<Result<(), String>> {
                if !Self::all_tunables().iter().any(|t| t.name == name) {
                    return None;
                }
                Some(self.set(name, value))
            }

            /// The value of the constant `name`, as `set` reads it.
            pub fn get(&self, name: &str) -> Option<String> {
                match name {
                    $( stringify!($field) => Some(self.$field.to_string()), )*
                    _ => {
                        $( return self.$nfield.get(name); )?
                        #[allow(unreachable_code)]
                        None
                    }
                }
            }

            /// These constants with `text`'s `name=value` items applied (commas or spaces
            /// between them); the first bad item is the error.
            pub fn with_overrides(mut self, text: &str) -> Result<Self, String> {
                $crate::search::tunables::apply_overrides(text, |n, v| self.set(n, v))?;
                Ok(self)
            }

            /// Every constant as `name=value`, space-separated (what `with_overrides` reads).
            pub fn settings_text(&self) -> String {
                #[allow(unused_mut)]
                let mut items: Vec<String> = vec![
                    $( format!("{}={}", stringify!($field), self.$field), )*
                ];
                $( items.push(self.$nfield.settings_text()); )?
                items.retain(|s| !s.is_empty());
                items.join(" ")
            }

            /// The constants that differ from `base`, as `name=value` (empty: none).
            pub fn changed_from(&self, base: &Self) -> String {
                let mut items: Vec<String> = Vec::new();
                $(
                    if self.$field != base.$field {
                        items.push(format!("{}={}", stringify!($field), self.$field));
                    }
                )*
                $( items.push(self.$nfield.changed_from(&base.$nfield)); )?
                items.retain(|s| !s.is_empty());
                items.join(" ")
            }
        }
    };
}

#[cfg(test)]
mod tests {
    crate::tunables! {
        /// A parameter struct for the macro's tests.
        pub struct Example {
            /// A count.
            count: usize = 3, 1 ..= 10;
            /// A signed margin.
            margin: i32 = -5, -100 ..= 100;
            /// A switch.
            on: bool = false, 0 ..= 1;
            /// A rate.
            rate: f64 = 0.5, 0.0 ..= 2.0;
        }
    }

    crate::tunables! {
        /// A parameter struct holding another.
        pub struct Outer {
            /// A limit.
            limit: u64 = 100, 0 ..= 1000;
            nested
            /// The inner set.
            inner: Example;
        }
    }

    #[test]
    fn a_nested_set_answers_through_the_outer_one() {
        let mut o = Outer::default();
        assert_eq!((o.limit, o.inner.count), (100, 3));
        o.set("limit", "7").unwrap();
        o.set("count", "9").unwrap();
        assert_eq!((o.limit, o.inner.count), (7, 9));
        assert_eq!(o.get("margin").as_deref(), Some("-5"));
        assert!(o.set("nosuch", "1").is_err());
        assert_eq!(o.changed_from(&Outer::default()), "limit=7 count=9");
        assert_eq!(Outer::default().with_overrides(&o.settings_text()), Ok(o));
        let names: Vec<&str> = Outer::all_tunables().iter().map(|t| t.name).collect();
        assert_eq!(names, ["limit", "count", "margin", "on", "rate"]);
        assert_eq!(Outer::TUNABLES.len(), 1);
    }

    #[test]
    fn defaults_names_and_ranges_come_from_the_declaration() {
        let d = Example::default();
        assert_eq!((d.count, d.margin, d.on, d.rate), (3, -5, false, 0.5));
        let names: Vec<&str> = Example::TUNABLES.iter().map(|t| t.name).collect();
        assert_eq!(names, ["count", "margin", "on", "rate"]);
        assert_eq!(Example::TUNABLES[1].doc, " A signed margin.");
        assert_eq!(
            (Example::TUNABLES[1].min, Example::TUNABLES[1].max),
            (-100.0, 100.0)
        );
    }

    #[test]
    fn set_and_get_by_name_and_refuse_what_is_out_of_range() {
        let mut e = Example::default();
        e.set("count", "7").unwrap();
        e.set("on", "1").unwrap();
        e.set("rate", "1.25").unwrap();
        assert_eq!(e.get("count").as_deref(), Some("7"));
        assert_eq!(e.get("on").as_deref(), Some("true"));
        let before = e.clone();
        for (name, value) in [
            ("count", "0"),
            ("count", "11"),
            ("count", "-1"),
            ("count", "2.5"),
            ("margin", "x"),
            ("on", "2"),
            ("rate", "NaN"),
            ("rate", "inf"),
            ("rate", "3"),
            ("nosuch", "1"),
        ] {
            assert!(e.set(name, value).is_err(), "{name}={value}");
        }
        assert_eq!(e, before);
        assert_eq!(e.get("nosuch"), None);
        assert_eq!(e.set_known("nosuch", "1"), None);
        assert!(matches!(e.set_known("count", "0"), Some(Err(_))));
        assert_eq!(e.set_known("count", "8"), Some(Ok(())));
    }

    #[test]
    fn the_table_lists_each_constant_with_its_value_range_and_doc() {
        let d = Example::default();
        let t = super::table(Example::TUNABLES, |n| d.get(n));
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 5);
        assert_eq!(lines[0], "name\tdefault\tmin\tmax\twhat it does");
        assert_eq!(lines[2], "margin\t-5\t-100\t100\tA signed margin.");
    }

    #[test]
    fn overrides_round_trip_through_the_settings_text() {
        let d = Example::default();
        let tuned = d
            .clone()
            .with_overrides("count=9, margin=20 on=true")
            .unwrap();
        assert_eq!((tuned.count, tuned.margin, tuned.on), (9, 20, true));
        assert_eq!(
            d.clone().with_overrides(&tuned.settings_text()),
            Ok(tuned.clone())
        );
        assert_eq!(tuned.changed_from(&d), "count=9 margin=20 on=true");
        assert_eq!(d.changed_from(&d), "");
        assert!(d.clone().with_overrides("count").is_err());
        assert!(d.clone().with_overrides("count=4,bad=1").is_err());
        assert_eq!(d.clone().with_overrides("").unwrap(), d);
    }
}
