// Passwords kept as Argon2id hashes (server/people/passwords.hpp).
#include <gtest/gtest.h>

#include <sodium.h>

#include "people/passwords.hpp"

namespace emporium::server {
namespace {

TEST(Passwords, AHashVerifiesItsPasswordAndNoOther) {
  const std::string stored = passwords::hash("correct horse battery");
  EXPECT_TRUE(stored.starts_with("$argon2id$")) << stored;
  EXPECT_EQ(stored.find("correct"), std::string::npos);
  EXPECT_TRUE(passwords::verify(stored, "correct horse battery"));
  EXPECT_FALSE(passwords::verify(stored, "correct horse batter"));
  EXPECT_FALSE(passwords::verify(stored, ""));
  // A salt of its own each time: the same password never gives the same text.
  EXPECT_NE(passwords::hash("correct horse battery"), stored);
  EXPECT_FALSE(passwords::needs_rehash(stored));
}

TEST(Passwords, WhatIsNotAHashVerifiesNothing) {
  EXPECT_FALSE(passwords::verify("", "x"));
  EXPECT_FALSE(passwords::verify("$argon2id$nonsense", "x"));
  EXPECT_FALSE(passwords::verify(std::string(1000, 'a'), "x"));
  EXPECT_TRUE(passwords::needs_rehash(""));
}

TEST(Passwords, AHashWithWeakerParametersIsMadeAnew) {
  char weak[crypto_pwhash_STRBYTES];
  ASSERT_EQ(crypto_pwhash_str(weak, "pw123456", 8, crypto_pwhash_OPSLIMIT_MIN, crypto_pwhash_MEMLIMIT_MIN), 0);
  EXPECT_TRUE(passwords::verify(weak, "pw123456"));  // it still signs its account in
  EXPECT_TRUE(passwords::needs_rehash(weak));
}

}  // namespace
}  // namespace emporium::server
