//! A deserializer that lends nothing: [`Owned`] wraps a deserializer over
//! bytes that live for `'w` (a window of a stream) as a deserializer for
//! any `'de`, handing borrowed strings and bytes to the visitor as
//! transient ones (`visit_str`, `visit_bytes`), as serde_json's reader does
//! with its scratch buffer. [`crate::from_reader`] runs the slice
//! deserializer on each value that fits in its window through it.
//!
//! The same wrapper plays every role on the way down and back: the
//! deserializer (`'w` to `'de`), the visitor and the seeds (`'de` to
//! `'w`), and the sequence, map and enum accesses (`'w` to `'de`).

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};
use std::marker::PhantomData;

/// `T` (a deserializer, visitor, seed or access of one lifetime) seen
/// with the other lifetime.
pub(crate) struct Owned<'w, 'de, T>(T, Lifetimes<'w, 'de>);

/// The two lifetimes an [`Owned`] converts between.
type Lifetimes<'w, 'de> = PhantomData<(fn(&'w ()), fn(&'de ()))>;

impl<'w, 'de, T> Owned<'w, 'de, T> {
    pub(crate) fn new(inner: T) -> Self {
        Owned(inner, PhantomData)
    }
}

/// `deserialize_*` methods that pass the visitor on, wrapped.
macro_rules! forward_owned {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
            self.0.$method(Owned::new(visitor))
        }
    )*};
}

impl<'w, 'de, D: Deserializer<'w>> Deserializer<'de> for Owned<'w, 'de, D> {
    type Error = D::Error;

    forward_owned! {
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf
        deserialize_option deserialize_unit deserialize_seq deserialize_map
        deserialize_identifier deserialize_ignored_any
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_unit_struct(name, Owned::new(visitor))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_newtype_struct(name, Owned::new(visitor))
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple(len, Owned::new(visitor))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0
            .deserialize_tuple_struct(name, len, Owned::new(visitor))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_struct(name, fields, Owned::new(visitor))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_enum(name, variants, Owned::new(visitor))
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

/// `visit_*` methods that take a value by copy and pass it on.
macro_rules! forward_visit {
    ($($method:ident: $ty:ty)*) => {$(
        fn $method<E: de::Error>(self, v: $ty) -> Result<V::Value, E> {
            self.0.$method(v)
        }
    )*};
}

impl<'w, 'de, V: Visitor<'de>> Visitor<'w> for Owned<'w, 'de, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.expecting(f)
    }

    forward_visit! {
        visit_bool: bool visit_i8: i8 visit_i16: i16 visit_i32: i32 visit_i64: i64
        visit_i128: i128 visit_u8: u8 visit_u16: u16 visit_u32: u32 visit_u64: u64
        visit_u128: u128 visit_f32: f32 visit_f64: f64 visit_char: char
        visit_str: &str visit_string: String visit_bytes: &[u8] visit_byte_buf: Vec<u8>
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'w str) -> Result<V::Value, E> {
        self.0.visit_str(v)
    }

    fn visit_borrowed_bytes<E: de::Error>(self, v: &'w [u8]) -> Result<V::Value, E> {
        self.0.visit_bytes(v)
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_unit()
    }

    fn visit_some<D: Deserializer<'w>>(self, d: D) -> Result<V::Value, D::Error> {
        self.0.visit_some(Owned::new(d))
    }

    fn visit_newtype_struct<D: Deserializer<'w>>(self, d: D) -> Result<V::Value, D::Error> {
        self.0.visit_newtype_struct(Owned::new(d))
    }

    fn visit_seq<A: SeqAccess<'w>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.0.visit_seq(Owned::new(seq))
    }

    fn visit_map<A: MapAccess<'w>>(self, map: A) -> Result<V::Value, A::Error> {
        self.0.visit_map(Owned::new(map))
    }

    fn visit_enum<A: EnumAccess<'w>>(self, data: A) -> Result<V::Value, A::Error> {
        self.0.visit_enum(Owned::new(data))
    }
}

impl<'w, 'de, S: DeserializeSeed<'de>> DeserializeSeed<'w> for Owned<'w, 'de, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'w>>(self, d: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(Owned::new(d))
    }
}

impl<'w, 'de, A: SeqAccess<'w>> SeqAccess<'de> for Owned<'w, 'de, A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(Owned::new(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'w, 'de, A: MapAccess<'w>> MapAccess<'de> for Owned<'w, 'de, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(Owned::new(seed))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.0.next_value_seed(Owned::new(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'w, 'de, A: EnumAccess<'w>> EnumAccess<'de> for Owned<'w, 'de, A> {
    type Error = A::Error;
    type Variant = Owned<'w, 'de, A::Variant>;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, Self::Variant), A::Error> {
        let (v, variant) = self.0.variant_seed(Owned::new(seed))?;
        Ok((v, Owned::new(variant)))
    }
}

impl<'w, 'de, A: VariantAccess<'w>> VariantAccess<'de> for Owned<'w, 'de, A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.0.newtype_variant_seed(Owned::new(seed))
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, Owned::new(visitor))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.0.struct_variant(fields, Owned::new(visitor))
    }
}
