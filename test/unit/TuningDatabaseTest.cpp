//===- TuningDatabaseTest.cpp - Measured schedules in a JSON file ---------===//
#include "autoscheduler/TuningDatabase.h"
#include "test/unit/ScratchDirectory.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

using namespace nautilus;
using namespace nautilus::autosched;

namespace {

TuningRecord record(std::string hash, std::map<std::string, int64_t> sizes,
                    std::string tile) {
  TuningRecord r;
  r.kernelHash = std::move(hash);
  r.kernel = "gemm";
  r.target = "cpu";
  r.sizes = std::move(sizes);
  r.schedule = "{\"programs\":{\"gemm_C\":\"#tile.schedule<tile = [" + tile +
               "], threads = 1>\"}}";
  r.measuredNs = 1000;
  r.baselineNs = 2000;
  return r;
}

std::string fileText(const std::string &path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace

// What is saved is read back the same, byte for byte, and records are
// kept in one order whatever the order they were added in.
TEST(TuningDatabase, RoundTripsAndKeepsOneOrder) {
  TuningDatabase a, b;
  a.insert(record("k1", {{"M", 512}}, "8, 32"));
  a.insert(record("k0", {{"M", 256}}, "4, 64"));
  b.insert(record("k0", {{"M", 256}}, "4, 64"));
  b.insert(record("k1", {{"M", 512}}, "8, 32"));
  EXPECT_EQ(a.text(), b.text());
  TuningDatabase c;
  ASSERT_EQ(c.parse(a.text()), "");
  EXPECT_EQ(c.text(), a.text());
  ASSERT_EQ(c.records().size(), 2u);
  EXPECT_EQ(c.records()[0].kernelHash, "k0");
  EXPECT_EQ(c.records()[1].schedule, a.records()[1].schedule);
}

// A record for the same kernel, target and sizes replaces the old one.
TEST(TuningDatabase, ReplacesTheRecordOfTheSameKey) {
  TuningDatabase db;
  db.insert(record("k", {{"M", 256}}, "4, 64"));
  db.insert(record("k", {{"M", 256}}, "8, 32"));
  ASSERT_EQ(db.records().size(), 1u);
  EXPECT_NE(db.records()[0].schedule.find("8, 32"), std::string::npos);
}

// Each machine keeps its record of a key (two GPUs of one target, two
// hosts); a lookup prefers the machine it names among records equally
// near, else takes the first.
TEST(TuningDatabase, KeepsARecordForEachMachine) {
  TuningDatabase db;
  TuningRecord h100 = record("k", {{"M", 256}}, "4, 64");
  h100.machine = "cuda:0: NVIDIA H100 (sm_90)";
  TuningRecord h200 = record("k", {{"M", 256}}, "8, 32");
  h200.machine = "cuda:0: NVIDIA H200 (sm_90)";
  db.insert(h200);
  db.insert(h100);
  h100.schedule += " ";
  db.insert(h100); // replaces the H100's only
  ASSERT_EQ(db.records().size(), 2u);
  EXPECT_EQ(db.lookup("k", "cpu", {{"M", 256}}, h200.machine)->first->machine,
            h200.machine);
  EXPECT_EQ(db.lookup("k", "cpu", {{"M", 256}}, h100.machine)->first->schedule,
            h100.schedule);
  // (Another machine, or none named: the first in the file's order.)
  EXPECT_EQ(db.lookup("k", "cpu", {{"M", 256}}, "x")->first->machine,
            h100.machine);
  // Equally near in the bucket: the machine named.
  auto near = db.lookup("k", "cpu", {{"M", 250}}, h200.machine);
  ASSERT_TRUE(near);
  EXPECT_EQ(near->second, RecordMatch::Bucket);
  EXPECT_EQ(near->first->machine, h200.machine);
  // An exact record of another machine before a nearer machine's bucket.
  TuningRecord other = record("k", {{"M", 250}}, "2, 64");
  other.machine = "another host";
  db.insert(other);
  EXPECT_EQ(db.lookup("k", "cpu", {{"M", 250}}, h200.machine)->first->machine,
            "another host");
}

// Exact sizes first; else the nearest record in the same power-of-two
// bucket; never another kernel's or another target's.
TEST(TuningDatabase, LooksUpExactThenBucket) {
  TuningDatabase db;
  db.insert(record("k", {{"M", 256}, {"N", 1024}}, "4, 64"));
  db.insert(record("k", {{"M", 200}, {"N", 1000}}, "8, 32"));
  db.insert(record("other", {{"M", 300}, {"N", 1000}}, "6, 64"));
  auto exact = db.lookup("k", "cpu", {{"M", 256}, {"N", 1024}});
  ASSERT_TRUE(exact);
  EXPECT_EQ(exact->second, RecordMatch::Exact);
  auto near = db.lookup("k", "cpu", {{"M", 210}, {"N", 1010}});
  ASSERT_TRUE(near);
  EXPECT_EQ(near->second, RecordMatch::Bucket);
  EXPECT_EQ(near->first->sizes.at("M"), 200);
  EXPECT_FALSE(db.lookup("k", "cpu", {{"M", 300}, {"N", 1024}}));
  EXPECT_FALSE(db.lookup("k", "sm_90", {{"M", 256}, {"N", 1024}}));
  EXPECT_FALSE(db.lookup("k", "cpu", {{"M", 256}}));
  EXPECT_EQ(sizeBucket(1), 1);
  EXPECT_EQ(sizeBucket(257), 512);
}

// Files that are not databases are refused with a reason.
TEST(TuningDatabase, RefusesWhatIsNotADatabase) {
  TuningDatabase db;
  EXPECT_NE(db.parse("not json").find("not JSON"), std::string::npos);
  EXPECT_NE(db.parse("{\"programs\": {}}").find("expected"), std::string::npos);
  EXPECT_NE(db.parse("{\"version\": 7, \"records\": []}").find("version"),
            std::string::npos);
  EXPECT_NE(db.parse("{\"version\": 1, \"records\": [{\"target\": \"cpu\"}]}")
                .find("record 0"),
            std::string::npos);
  EXPECT_EQ(db.parse("{\"version\": 1, \"records\": []}"), "");
}

// Keys this nautc does not read (a newer one's, a person's notes), in a
// record or at the top, are written back as they were.
TEST(TuningDatabase, KeepsTheKeysItDoesNotRead) {
  TuningDatabase db;
  TuningDatabase empty;
  std::string text = empty.text();
  ASSERT_EQ(db.parse(text), "");
  TuningRecord r = record("h1", {{"M", 64}}, "8, 32");
  db.insert(r);
  std::string withRecord = db.text();
  std::string noted = withRecord;
  noted.replace(noted.find("\"baseline_ns\""), 0,
                "\"notes\": \"from the 2026 run\", ");
  noted.replace(noted.find("\"records\""), 0, "\"comment\": [1, 2],\n  ");
  ASSERT_EQ(db.parse(noted), "") << noted;
  std::string again = db.text();
  EXPECT_NE(again.find("\"notes\":\"from the 2026 run\""), std::string::npos)
      << again;
  EXPECT_NE(again.find("\"comment\": [1,2]"), std::string::npos) << again;
  TuningDatabase reread;
  ASSERT_EQ(reread.parse(again), "");
  EXPECT_EQ(reread.text(), again);
}

// Two processes that read one file, then each add a record, keep both:
// the second adds to the file as the first left it.
TEST(TuningDatabase, AddsToTheFileAsItIsNow) {
  ScratchDirectory scratch("tuning-db");
  ASSERT_EQ(std::system(("mkdir -p '" + scratch.path + "'").c_str()), 0);
  std::string path = scratch.path + "/db.json";
  TuningDatabase first, second;
  ASSERT_EQ(first.load(path), "");
  ASSERT_EQ(second.load(path), "");
  ASSERT_EQ(first.addToFile(path, record("h1", {{"M", 64}}, "8, 32")), "");
  ASSERT_EQ(second.addToFile(path, record("h2", {{"M", 64}}, "4, 64")), "");
  TuningDatabase both;
  ASSERT_EQ(both.load(path), "");
  ASSERT_EQ(both.records().size(), 2u) << fileText(path);
  EXPECT_EQ(second.records().size(), 2u);
  EXPECT_EQ(fileText(path), both.text());
}

// A database that cannot be written is named before anything is measured.
TEST(TuningDatabase, SaysWhyAFileCannotBeWritten) {
  ScratchDirectory scratch("tuning-db-folder");
  EXPECT_NE(TuningDatabase::unwritable(scratch.path + "/missing/db.json")
                .find("its folder '" + scratch.path +
                      "/missing' does not "
                      "exist"),
            std::string::npos);
  ASSERT_EQ(std::system(("mkdir -p '" + scratch.path + "'").c_str()), 0);
  EXPECT_EQ(TuningDatabase::unwritable(scratch.path + "/db.json"), "");
  TuningDatabase db;
  db.insert(record("h1", {{"M", 64}}, "8, 32"));
  EXPECT_NE(db.save(scratch.path + "/missing/db.json"), "");
}
