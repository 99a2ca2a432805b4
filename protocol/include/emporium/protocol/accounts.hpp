#pragma once
// The bodies of the account requests (HTTP POSTs of JSON to /api/...; protocol/README.md, "Accounts"), read as
// strictly as the WebSocket's messages, and the one rule for when two account names are the same name.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "emporium/protocol/protocol.hpp"

namespace emporium::protocol::accounts {

// Error codes of the account requests, beside the shared ones (bad_json, bad_message, bad_name).
namespace errc {
inline constexpr const char* bad_password = "bad_password";  // too short or too long
}

struct Limits {
  protocol::Limits names{};               // display names and seat tokens, as on the WebSocket
  std::size_t min_password_bytes = 8;
  std::size_t max_password_bytes = 256;   // hashing takes the same time at any length; this bounds the body
  std::size_t max_label_chars = 64;       // a passkey's name
  std::size_t max_credential_chars = 24 * 1024;  // each base64url field of a passkey's answer
  std::size_t max_body_bytes = 64 * 1024;
};

// What two account names are compared by: NFKC-normalized and case-folded (libunistring's u8_casefold), with
// each run of spaces made one space, so "Ann Lee", "ann  lee" and "ＡＮＮ ＬＥＥ" are one name. Empty for a text
// that is not valid UTF-8 or has nothing in it: no account's key.
std::string name_key(std::string_view name);

// What a browser sends of a passkey (PublicKeyCredential, its binary fields as base64url without padding): the
// attestation object for a new passkey, or the authenticator data and signature of a sign-in.
struct PasskeyAnswer {
  std::string id;
  std::string client_data_json;
  std::string attestation_object;  // registration
  std::string authenticator_data;  // assertion
  std::string signature;           // assertion
  std::string user_handle;         // assertion; may be empty
};

struct PasswordSignUp { std::string name, password; std::vector<std::string> seats; };
struct PasswordSignIn { std::string name, password; std::vector<std::string> seats; };
// What the browser asks for before it talks to its authenticator: a challenge to make a passkey ("sign_up" with
// the account's name, or "add" to the signed-in account) or to sign in with one ("sign_in").
struct PasskeyOptions { std::string purpose; std::optional<std::string> name; };
struct PasskeySignUp { std::string name, label; PasskeyAnswer passkey; std::vector<std::string> seats; };
struct PasskeySignIn { PasskeyAnswer passkey; std::vector<std::string> seats; };
struct PasskeyAdd { std::string label; PasskeyAnswer passkey; };
struct PasskeyRename { std::string id, label; };
struct PasskeyRemove { std::string id; };
struct SetPassword { std::optional<std::string> current; std::string password; };
struct SessionSignOut { std::string id; };             // one of the account's sessions, by its public id
struct ClaimSeats { std::vector<std::string> seats; };
struct DeleteAccount { std::string name; };            // the account's name again, to confirm
// A moderator's action (docs/friends.md "Moderation"): on a report, or on an account by name; why, and for how long
// (a mute or a suspension: 1 hour to a year).
struct ModerationAct {
  std::string report, name;  // one of them
  std::string action;        // "dismiss" (a report only), "warn", "mute", "suspend"
  std::string reason;
  int hours = 0;
};

template <class T>
using Parsed = std::variant<T, ParseError>;  // ParseError's id is always null here

Parsed<PasswordSignUp> parse_password_sign_up(std::string_view body, const Limits& limits = {});
Parsed<PasswordSignIn> parse_password_sign_in(std::string_view body, const Limits& limits = {});
Parsed<PasskeyOptions> parse_passkey_options(std::string_view body, const Limits& limits = {});
Parsed<PasskeySignUp> parse_passkey_sign_up(std::string_view body, const Limits& limits = {});
Parsed<PasskeySignIn> parse_passkey_sign_in(std::string_view body, const Limits& limits = {});
Parsed<PasskeyAdd> parse_passkey_add(std::string_view body, const Limits& limits = {});
Parsed<PasskeyRename> parse_passkey_rename(std::string_view body, const Limits& limits = {});
Parsed<PasskeyRemove> parse_passkey_remove(std::string_view body, const Limits& limits = {});
Parsed<SetPassword> parse_set_password(std::string_view body, const Limits& limits = {});
Parsed<SessionSignOut> parse_session_sign_out(std::string_view body, const Limits& limits = {});
Parsed<ClaimSeats> parse_claim_seats(std::string_view body, const Limits& limits = {});
Parsed<DeleteAccount> parse_delete_account(std::string_view body, const Limits& limits = {});
Parsed<ModerationAct> parse_moderation_act(std::string_view body, const Limits& limits = {});

}  // namespace emporium::protocol::accounts
