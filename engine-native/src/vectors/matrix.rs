//! [`VectorMatrix`]: one embedding set's vectors in a contiguous row-major `f32` buffer, the
//! layout the exact scan streams through at memory speed.

use std::collections::HashMap;

use super::MatrixError;

/// The vectors of one embedding set in memory: row `i` is `rows[i * dims..(i + 1) * dims]`,
/// belonging to chunk `chunk_ids[i]` of note `note_keys[i]`. Rows are finite; removal
/// swap-removes, so the buffer stays contiguous and row order is not meaningful.
#[derive(Debug, Clone, PartialEq)]
pub struct VectorMatrix {
    dims: usize,
    rows: Vec<f32>,
    chunk_ids: Vec<i64>,
    note_keys: Vec<u32>,
    /// Row index of each chunk.
    positions: HashMap<i64, usize>,
}

impl VectorMatrix {
    /// An empty matrix of `dims`-dimensional vectors.
    pub fn new(dims: usize) -> Result<Self, MatrixError> {
        Self::with_capacity(dims, 0)
    }

    /// An empty matrix with room for `capacity` rows.
    pub fn with_capacity(dims: usize, capacity: usize) -> Result<Self, MatrixError> {
        if dims == 0 {
            return Err(MatrixError::ZeroDims);
        }
        Ok(Self {
            dims,
            rows: Vec::with_capacity(capacity.saturating_mul(dims)),
            chunk_ids: Vec::with_capacity(capacity),
            note_keys: Vec::with_capacity(capacity),
            positions: HashMap::with_capacity(capacity),
        })
    }

    /// Makes room for `more` rows beyond those held, exactly: a pass that will add them grows
    /// the matrix once instead of doubling it (pf2e-srd's 21,162 rows of 384 are 32.5 MB; by
    /// doubling, up to 50 MB held and 75 MB while the last doubling copies).
    pub fn reserve(&mut self, more: usize) {
        self.rows.reserve_exact(more.saturating_mul(self.dims));
        self.chunk_ids.reserve_exact(more);
        self.note_keys.reserve_exact(more);
        self.positions.reserve(more);
    }

    /// The dimension of every row.
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.chunk_ids.len()
    }

    /// Whether the matrix has no rows.
    pub fn is_empty(&self) -> bool {
        self.chunk_ids.is_empty()
    }

    /// All rows, row-major and contiguous.
    pub fn rows(&self) -> &[f32] {
        &self.rows
    }

    /// The chunk of each row.
    pub fn chunk_ids(&self) -> &[i64] {
        &self.chunk_ids
    }

    /// The note of each row.
    pub fn note_keys(&self) -> &[u32] {
        &self.note_keys
    }

    /// The vector of `chunk_id`, if present.
    pub fn vector(&self, chunk_id: i64) -> Option<&[f32]> {
        let row = *self.positions.get(&chunk_id)?;
        Some(&self.rows[row * self.dims..(row + 1) * self.dims])
    }

    /// The note key of `chunk_id`, if present.
    pub fn note_key(&self, chunk_id: i64) -> Option<u32> {
        Some(self.note_keys[*self.positions.get(&chunk_id)?])
    }

    /// Inserts the vector of `chunk_id` (in note `note_key`), or replaces it in place.
    /// A refused vector changes nothing.
    pub fn upsert(
        &mut self,
        chunk_id: i64,
        note_key: u32,
        vector: &[f32],
    ) -> Result<(), MatrixError> {
        check_vector(self.dims, vector)?;
        match self.positions.get(&chunk_id) {
            Some(&row) => {
                self.rows[row * self.dims..(row + 1) * self.dims].copy_from_slice(vector);
                self.note_keys[row] = note_key;
            }
            None => {
                self.positions.insert(chunk_id, self.chunk_ids.len());
                self.rows.extend_from_slice(vector);
                self.chunk_ids.push(chunk_id);
                self.note_keys.push(note_key);
            }
        }
        Ok(())
    }

    /// Removes the row of `chunk_id` by moving the last row into its place; `false` when the
    /// chunk was not present.
    pub fn remove(&mut self, chunk_id: i64) -> bool {
        let Some(row) = self.positions.remove(&chunk_id) else {
            return false;
        };
        let last = self.chunk_ids.len() - 1;
        if row != last {
            self.rows
                .copy_within(last * self.dims..(last + 1) * self.dims, row * self.dims);
            self.positions.insert(self.chunk_ids[last], row);
        }
        self.rows.truncate(last * self.dims);
        self.chunk_ids.swap_remove(row);
        self.note_keys.swap_remove(row);
        true
    }

    /// The heap bytes the matrix holds (rows, ids, keys, and the chunk index), by capacity.
    pub fn memory_bytes(&self) -> usize {
        let index_entry = std::mem::size_of::<(i64, usize)>() + 1;
        self.rows.capacity() * std::mem::size_of::<f32>()
            + self.chunk_ids.capacity() * std::mem::size_of::<i64>()
            + self.note_keys.capacity() * std::mem::size_of::<u32>()
            + self.positions.capacity() * index_entry
    }
}

/// Checks that `vector` has `dims` elements, all finite: the rule for every stored vector and
/// every query.
pub fn check_vector(dims: usize, vector: &[f32]) -> Result<(), MatrixError> {
    if vector.len() != dims {
        return Err(MatrixError::WrongLength {
            expected: dims,
            found: vector.len(),
        });
    }
    match vector.iter().position(|x| !x.is_finite()) {
        Some(index) => Err(MatrixError::NonFinite { index }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::VectorMatrix;

    #[test]
    fn a_reserved_matrix_takes_its_rows_without_growing_again() {
        let mut matrix = VectorMatrix::new(4).expect("matrix");
        matrix.upsert(1, 0, &[1.0, 0.0, 0.0, 0.0]).expect("row");
        matrix.reserve(1_000);
        let room = (matrix.rows.capacity(), matrix.chunk_ids.capacity());
        assert!(room.0 >= 1_001 * 4 && room.1 >= 1_001, "{room:?}");
        for id in 2..=1_001 {
            matrix.upsert(id, 0, &[0.0, 1.0, 0.0, 0.0]).expect("row");
        }
        assert_eq!((matrix.rows.capacity(), matrix.chunk_ids.capacity()), room);
        assert_eq!(matrix.chunk_ids.len(), 1_001);
    }
}
