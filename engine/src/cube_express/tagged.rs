//! Reading JSON objects tagged by a kind field (an action's `do`, a board piece's `kind`, the
//! `ending`'s `state`) whose other fields depend on the kind: each kind takes its own fields and
//! nothing else, so a misspelt or misplaced field is refused by name instead of being ignored
//! (`docs/formats/cube-express-position.md`).

use serde::de::{Error, IgnoredAny, MapAccess};

/// One tagged object as read: what it is (for messages: "an action"), its tag field's name and
/// value, and the names of every other field, in the order written.
pub(crate) struct Tagged {
    what: &'static str,
    tag: &'static str,
    /// The value of the tag field.
    pub kind: String,
    fields: Vec<String>,
}

/// Reads a tagged object (`what`, for messages) from `map`: the tag (`tag`, required) as a
/// string, each field of `known` with `read(name, map)` (which reads its value into the caller's
/// slot), and any other field skipped but remembered, for [`Tagged::allow`] to refuse.
pub(crate) fn read<'de, A: MapAccess<'de>>(
    mut map: A,
    what: &'static str,
    tag: &'static str,
    known: &[&str],
    mut read: impl FnMut(&str, &mut A) -> Result<(), A::Error>,
) -> Result<Tagged, A::Error> {
    let mut kind = None;
    let mut fields = Vec::new();
    while let Some(name) = map.next_key::<String>()? {
        if name == tag {
            if kind.is_some() {
                return Err(A::Error::duplicate_field(tag));
            }
            kind = Some(map.next_value::<String>()?);
            continue;
        }
        if fields.contains(&name) {
            return Err(A::Error::custom(format_args!("duplicate field `{name}`")));
        }
        if known.contains(&name.as_str()) {
            read(&name, &mut map)?;
        } else {
            map.next_value::<IgnoredAny>()?;
        }
        fields.push(name);
    }
    let kind = kind.ok_or_else(|| A::Error::missing_field(tag))?;
    Ok(Tagged { what, tag, kind, fields })
}

impl Tagged {
    /// Refuses every field that this kind does not take (`allowed`), naming it and the fields the
    /// kind takes.
    pub fn allow<E: Error>(&self, allowed: &[&str]) -> Result<(), E> {
        let Some(stray) = self.fields.iter().find(|f| !allowed.contains(&f.as_str())) else { return Ok(()) };
        let takes = match allowed {
            [] => format!("it has no field besides `{}`", self.tag),
            [one] => format!("its only other field is `{one}`"),
            _ => format!("its other fields are {}", quoted(allowed)),
        };
        Err(E::custom(format_args!(
            "unknown field `{stray}` in {} (`{}`: `{}`): {takes}",
            self.what, self.tag, self.kind
        )))
    }

    /// A field this kind requires, or the error naming it.
    pub fn need<T, E: Error>(&self, value: Option<T>, field: &str) -> Result<T, E> {
        value.ok_or_else(|| {
            E::custom(format_args!("missing field `{field}` in {} (`{}`: `{}`)", self.what, self.tag, self.kind))
        })
    }

    /// The error for a kind that is none of `kinds`.
    pub fn unknown<E: Error>(&self, kinds: &[&str]) -> E {
        E::custom(format_args!(
            "unknown `{}` value `{}` in {}, expected one of {}",
            self.tag,
            self.kind,
            self.what,
            quoted(kinds)
        ))
    }
}

fn quoted(names: &[&str]) -> String {
    names.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", ")
}
