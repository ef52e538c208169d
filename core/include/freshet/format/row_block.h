// A row block: updates of one table in a binary layout that JS writes
// straight into wasm memory from an array of objects, with no JSON text on
// either side (wasm-bindings/js/row_block.js writes it). Turning 10k
// objects into JSON and parsing it back cost ~2.8x what writing and reading
// their values costs.
//
// Layout, little-endian, the block's start 8-byte aligned:
//   offset 0   u32 magic kRowBlockMagic
//          4   u32 rows, 8: u32 columns (the table's, in its order)
//         12   u32 flags: kRowBlockHasOps, or 0 (every row is an insert: the
//              raw update format)
//         16   f64 cells[rows * columns], row-major: a NUMBER's value, or a
//              STRING's offset from the block's start
//              u8  kinds[rows * columns], row-major (RowBlockKind)
//              u8  ops[rows] when kRowBlockHasOps: 1 insert, 0 delete
//              strings: each a u32 byte length, then its UTF-8 bytes
//
// A row means what the same JSON record would (json_input.h): a cell
// converts as its JSON value (field_conversion.h) — a NUMBER into an integer
// column must be integral, into REAL/DOUBLE any finite double; a STRING is
// text (set_from_text) — an ABSENT cell is a column the record leaves out,
// and a delete from a table with a PRIMARY KEY that gives key columns only
// is a delete by key. The reader refuses what JSON would also refuse, but
// with its own messages: the JS writer only sends values whose JSON meaning
// is plain, and when a block is refused it sends the rows again as JSON,
// whose errors are the ones users see.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "freshet/common/status.h"
#include "freshet/format/json_input.h"
#include "freshet/types/schema.h"

namespace freshet {
class RowBuilder;
}

namespace freshet::format {

inline constexpr uint32_t kRowBlockMagic = 0x31425246;  // "FRB1"
inline constexpr size_t kRowBlockHeaderBytes = 16;
inline constexpr uint32_t kRowBlockHasOps = 1;

enum class RowBlockKind : uint8_t { kNull = 0, kNumber = 1, kFalse = 2, kTrue = 3, kString = 4, kAbsent = 5 };

//! Reads row blocks for one table, keeping its row builder between calls
//! (a live stream ingests one row at a time).
class RowBlockReader {
 public:
  explicit RowBlockReader(TableShape table);
  ~RowBlockReader();
  RowBlockReader(const RowBlockReader&) = delete;
  RowBlockReader& operator=(const RowBlockReader&) = delete;

  //! The block's updates; kParseError or kTypeError naming "record <i>"
  //! and the column for a bad cell, kParseError for a malformed block.
  Result<ParsedUpdates> read(std::string_view block);
  //! The block's updates after those `updates` hold (records are numbered
  //! on from them: a part of an ingest, pipeline.h IngestPart). Into empty
  //! `updates`, room is made for `total_rows` rows (all parts'; 0: the
  //! block's) like the block's, so that later parts need not grow them.
  Status read(std::string_view block, ParsedUpdates& updates, uint64_t total_rows);

 private:
  //! A block's parts, checked against its size.
  struct Rows {
    std::string_view block;
    const char* cells;
    const uint8_t* kinds;
    const uint8_t* ops;  // null: every row is an insert
    uint64_t columns;
  };
  //! Rows [from, to) into `updates`; an error names a row as record first_record + r.
  Status read_rows(const Rows& rows, uint64_t from, uint64_t to, uint64_t first_record, ParsedUpdates& updates);
  Status set_cell(size_t column, RowBlockKind kind, double cell, std::string_view block);
  //! The record's columns left ABSENT, and its key row for a delete by key.
  Status finish_row(bool insert, const uint8_t* kinds, ParsedUpdates& updates);

  //! Writes an insert of the row whose kinds and cells these are straight
  //! into `updates` when every cell is a plain value of its column
  //! (plain_columns_); false, with nothing written, for anything else: the
  //! general path (set_cell, finish_row) then reads it and names what is wrong.
  bool read_plain_row(const uint8_t* kinds, const char* cells, ParsedUpdates& updates) const;

  //! A column read_plain_row() writes: its slot, type and whether it takes NULL.
  struct PlainColumn {
    uint32_t offset;
    TypeId type;
    bool nullable;
  };

  const TableShape table_;
  const Schema& schema_;
  //! Every column, when all are integers, DOUBLE or BOOLEAN (rows of one
  //! width, no text to convert); else empty, and every row takes the
  //! general path. A bulk load's rows are mostly such: built field by field
  //! in a RowBuilder and then copied, they cost ~770 instructions a row of
  //! three columns natively, most of a load's ingest.
  std::vector<PlainColumn> plain_columns_;
  std::vector<bool> is_key_;
  std::unique_ptr<RowBuilder> row_, key_row_;
  std::unique_ptr<Schema> key_schema_;
};

}  // namespace freshet::format
