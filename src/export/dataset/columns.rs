//! Building an Arrow [`RecordBatch`] column by column from rows: plain columns, lists and
//! lists of lists (seat-indexed), each column non-nullable unless it says so.

use std::sync::Arc;

use arrow_array::builder::{ArrayBuilder, BooleanBuilder, Int32Builder, ListBuilder, StringBuilder, UInt8Builder};
use arrow_array::{ArrayRef, BooleanArray, Int32Array, Int8Array, RecordBatch, StringArray, UInt32Array, UInt8Array};
use arrow_schema::{ArrowError, Field, Schema};

/// Columns collected in order; [`Columns::finish`] makes the batch.
#[derive(Default)]
pub struct Columns {
    fields: Vec<Field>,
    arrays: Vec<ArrayRef>,
}

/// An Arrow builder that can append one value of `T` (string, bool, integer).
pub trait Append<T> {
    /// Appends `v`.
    fn push(&mut self, v: T);
}

impl<S: AsRef<str>> Append<S> for StringBuilder {
    fn push(&mut self, v: S) {
        self.append_value(v);
    }
}
impl Append<bool> for BooleanBuilder {
    fn push(&mut self, v: bool) {
        self.append_value(v);
    }
}
impl Append<i32> for Int32Builder {
    fn push(&mut self, v: i32) {
        self.append_value(v);
    }
}
impl Append<u8> for UInt8Builder {
    fn push(&mut self, v: u8) {
        self.append_value(v);
    }
}

impl Columns {
    fn add(&mut self, name: &str, array: ArrayRef, nullable: bool) {
        self.fields.push(Field::new(name, array.data_type().clone(), nullable));
        self.arrays.push(array);
    }

    /// A `string` column.
    pub fn str<S: AsRef<str>>(&mut self, name: &str, values: impl IntoIterator<Item = S>) {
        self.add(name, Arc::new(StringArray::from_iter_values(values)), false);
    }

    /// A nullable `string` column.
    pub fn opt_str<S: AsRef<str>>(&mut self, name: &str, values: impl IntoIterator<Item = Option<S>>) {
        self.add(name, Arc::new(values.into_iter().collect::<StringArray>()), true);
    }

    /// A `bool` column.
    pub fn bool(&mut self, name: &str, values: impl IntoIterator<Item = bool>) {
        self.add(name, Arc::new(values.into_iter().map(Some).collect::<BooleanArray>()), false);
    }

    /// A `uint8` column.
    pub fn u8(&mut self, name: &str, values: impl IntoIterator<Item = u8>) {
        self.add(name, Arc::new(UInt8Array::from_iter_values(values)), false);
    }

    /// An `int8` column.
    pub fn i8(&mut self, name: &str, values: impl IntoIterator<Item = i8>) {
        self.add(name, Arc::new(Int8Array::from_iter_values(values)), false);
    }

    /// An `int32` column.
    pub fn i32(&mut self, name: &str, values: impl IntoIterator<Item = i32>) {
        self.add(name, Arc::new(Int32Array::from_iter_values(values)), false);
    }

    /// A `uint32` column.
    pub fn u32(&mut self, name: &str, values: impl IntoIterator<Item = u32>) {
        self.add(name, Arc::new(UInt32Array::from_iter_values(values)), false);
    }

    /// A `list<T>` column: one list per row.
    pub fn list<T, B, R, I>(&mut self, name: &str, builder: B, rows: R)
    where
        B: ArrayBuilder + Append<T>,
        R: IntoIterator<Item = I>,
        I: IntoIterator<Item = T>,
    {
        let mut b = ListBuilder::new(builder);
        for row in rows {
            for v in row {
                b.values().push(v);
            }
            b.append(true);
        }
        self.add(name, Arc::new(b.finish()), false);
    }

    /// A `list<list<T>>` column: per row, one inner list per seat (or per item).
    pub fn list2<T, B, R, I, J>(&mut self, name: &str, builder: B, rows: R)
    where
        B: ArrayBuilder + Append<T>,
        R: IntoIterator<Item = I>,
        I: IntoIterator<Item = J>,
        J: IntoIterator<Item = T>,
    {
        let mut b = ListBuilder::new(ListBuilder::new(builder));
        for row in rows {
            for inner in row {
                for v in inner {
                    b.values().values().push(v);
                }
                b.values().append(true);
            }
            b.append(true);
        }
        self.add(name, Arc::new(b.finish()), false);
    }

    /// The batch of every column added, in order.
    pub fn finish(self) -> Result<RecordBatch, ArrowError> {
        RecordBatch::try_new(Arc::new(Schema::new(self.fields)), self.arrays)
    }
}
