// Batches and traces through the checkpoint encoding: they come back equal,
// and malformed bytes are refused with a message, never trusted.
#include "freshet/zset/batch_codec.h"

#include <algorithm>
#include <random>

#include <gtest/gtest.h>

#include "freshet/zset/batch_builder.h"
#include "support/generators.h"
#include "support/zset_map.h"

namespace freshet {
namespace {

BatchPtr random_batch(std::mt19937_64& random, size_t updates) {
  testing::OracleInput input = testing::indexed_kxs_input(20);
  RowBuilder key(*input.key_schema), value(*input.value_schema);
  BatchBuilder builder;
  for (size_t i = 0; i < updates; ++i) {
    input.generate(random, key, value);
    RowRef k = key.finish();
    std::string key_bytes = k.to_bytes();
    builder.add(RowRef(key_bytes), value.finish(), static_cast<Weight>(random() % 7) - 3);
  }
  return builder.finish();
}

TEST(BatchCodecTest, TracesRoundTripBatchByBatch) {
  std::mt19937_64 random(11);
  testing::OracleInput input = testing::indexed_kxs_input(20);
  Trace trace;
  for (int i = 0; i < 20; ++i) trace.insert(random_batch(random, 1 + random() % 50));
  ByteWriter out;
  write_trace(out, trace);
  ByteReader in(out.data(), "test");
  Trace restored;
  read_trace(in, rows_of(input.key_schema), rows_of(input.value_schema), &restored);
  in.expect_end();
  ASSERT_TRUE(in.ok()) << in.status().to_string();
  // The same batches come back (their levels decide their order).
  auto maps_of = [](const Trace& t) {
    std::vector<testing::ZSetMap> maps;
    for (const BatchPtr& batch : t.batches()) maps.push_back(testing::to_map(*batch));
    std::sort(maps.begin(), maps.end());
    return maps;
  };
  ASSERT_EQ(restored.batches().size(), trace.batches().size());
  EXPECT_EQ(maps_of(restored), maps_of(trace));
}

std::string encoded(const std::function<void(ByteWriter&)>& write) {
  ByteWriter out;
  write(out);
  return out.take();
}

std::string bigint(int64_t v) { return encode_row(*testing::bigint_schema(), {Value::bigint(v)}); }

Status read(const std::string& bytes) {
  ByteReader in(bytes, "batch");
  read_batch(in, rows_of(testing::bigint_schema()), rows_of(empty_schema()));
  in.expect_end();
  return in.status();
}

TEST(BatchCodecTest, MalformedBatchesAreRefused) {
  struct Case {
    const char* what;
    std::string bytes;
    const char* message;
  };
  auto entry = [](ByteWriter& out, const std::string& key, Weight weight) {
    out.bytes(key);
    out.varint(1);
    out.bytes("");
    out.signed_varint(weight);
  };
  std::vector<Case> cases = {
      {"keys out of order", encoded([&](ByteWriter& out) {
         out.varint(2), out.varint(2);
         entry(out, bigint(5), 1);
         entry(out, bigint(4), 1);
       }),
       "out of order"},
      {"a duplicate key", encoded([&](ByteWriter& out) {
         out.varint(2), out.varint(2);
         entry(out, bigint(5), 1);
         entry(out, bigint(5), 1);
       }),
       "out of order"},
      {"a zero weight", encoded([&](ByteWriter& out) {
         out.varint(1), out.varint(1);
         entry(out, bigint(5), 0);
       }),
       "zero weight"},
      {"a key of the wrong width", encoded([&](ByteWriter& out) {
         out.varint(1), out.varint(1);
         entry(out, "abc", 1);
       }),
       "does not fit its schema"},
      {"a huge count", encoded([&](ByteWriter& out) { out.varint(uint64_t{1} << 60), out.varint(1); }),
       "cannot fit"},
      {"a length past the end", encoded([&](ByteWriter& out) {
         out.varint(1), out.varint(1);
         out.varint(1000);
       }),
       "runs past the end"},
      {"entries miscounted", encoded([&](ByteWriter& out) {
         out.varint(1), out.varint(3);
         entry(out, bigint(5), 1);
         out.u8(0), out.u8(0), out.u8(0), out.u8(0);
       }),
       "promised 3 entries"},
      {"a truncated varint", std::string("\x81", 1), "truncated"},
  };
  for (const Case& c : cases) {
    Status status = read(c.bytes);
    EXPECT_EQ(status.code(), ErrorCode::kCheckpointCorrupt) << c.what;
    EXPECT_NE(status.message().find(c.message), std::string::npos) << c.what << ": " << status.message();
  }
  EXPECT_TRUE(read(encoded([&](ByteWriter& out) {
                out.varint(1), out.varint(1);
                entry(out, bigint(5), -2);
              })).ok());
}

TEST(ByteIoTest, NumbersRoundTrip) {
  ByteWriter out;
  out.varint(0), out.varint(127), out.varint(128), out.varint(UINT64_MAX);
  out.signed_varint(-1), out.signed_varint(INT64_MIN), out.signed_varint(INT64_MAX);
  __int128 big = static_cast<__int128>(-1234567890123456789LL) * 1000000000000LL;
  out.i128(big), out.f64(-0.5), out.u32(0xdeadbeef), out.boolean(true);
  ByteReader in(out.data(), "numbers");
  EXPECT_EQ(in.varint(), 0u);
  EXPECT_EQ(in.varint(), 127u);
  EXPECT_EQ(in.varint(), 128u);
  EXPECT_EQ(in.varint(), UINT64_MAX);
  EXPECT_EQ(in.signed_varint(), -1);
  EXPECT_EQ(in.signed_varint(), INT64_MIN);
  EXPECT_EQ(in.signed_varint(), INT64_MAX);
  EXPECT_TRUE(in.i128() == big);
  EXPECT_EQ(in.f64(), -0.5);
  EXPECT_EQ(in.u32(), 0xdeadbeefu);
  EXPECT_TRUE(in.boolean());
  in.expect_end();
  EXPECT_TRUE(in.ok());
  EXPECT_EQ(in.u8(), 0);
  EXPECT_NE(in.status().message().find("numbers at byte"), std::string::npos) << in.status().message();
}

}  // namespace
}  // namespace freshet
