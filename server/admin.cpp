// emporium-admin: what the people running a server do to it from its own machine (docs/friends.md "Moderation").
// It opens the same store as the server (--store, --data-dir, or their environment variables), beside a running
// server or not.
//
//   emporium-admin [--store SETTING | --data-dir DIR] grant-moderator NAME
//   emporium-admin [--store SETTING | --data-dir DIR] revoke-moderator NAME
//   emporium-admin [--store SETTING | --data-dir DIR] moderators
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <emporium/protocol/accounts.hpp>

#include "store/people_store.hpp"

namespace {

constexpr const char* kUsage =
    "usage: emporium-admin [--store SETTING | --data-dir DIR] COMMAND\n"
    "  grant-moderator NAME    the account of that name may see reports and act on them\n"
    "  revoke-moderator NAME   no longer\n"
    "  moderators              list the moderators\n"
    "The store is the server's: --store (or EMPORIUM_STORE), else sqlite:<--data-dir> (or EMPORIUM_DATA_DIR, "
    "default data).\n";

std::string env_or(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value && *value ? value : fallback;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace emporium::server;
  std::string store = env_or("EMPORIUM_STORE", "");
  std::string data_dir = env_or("EMPORIUM_DATA_DIR", "data");
  std::vector<std::string> words;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--store" || arg == "--data-dir") && i + 1 < argc) {
      (arg == "--store" ? store : data_dir) = argv[++i];
    } else if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    } else {
      words.push_back(arg);
    }
  }
  const bool named = words.size() == 2 && (words[0] == "grant-moderator" || words[0] == "revoke-moderator");
  if (!named && !(words.size() == 1 && words[0] == "moderators")) {
    std::cerr << kUsage;
    return 2;
  }
  try {
    const auto people = open_people_store(store.empty() ? "sqlite:" + data_dir : store);
    if (words[0] == "moderators") {
      for (const auto& a : people->accounts_with_role("moderator")) std::cout << a.name << "\n";
      return 0;
    }
    const auto account = people->account_by_name_key(emporium::protocol::accounts::name_key(words[1]));
    if (!account) {
      std::cerr << "emporium-admin: no account is called " << words[1] << "\n";
      return 1;
    }
    const bool grant = words[0] == "grant-moderator";
    people->set_role(account->id, grant ? "moderator" : "");
    std::cout << account->name << (grant ? " is a moderator now\n" : " is no longer a moderator\n");
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "emporium-admin: " << e.what() << "\n";
    return 1;
  }
}
