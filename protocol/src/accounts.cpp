// Reading the account requests' bodies: the same strict reading as the WebSocket's messages (fields.hpp).
#include "emporium/protocol/accounts.hpp"

#include <cstdlib>
#include <memory>
#include <span>

#include <unicase.h>
#include <uninorm.h>

#include "fields.hpp"
#include "unicode.hpp"

namespace emporium::protocol::accounts {
namespace {

using namespace fields;  // NOLINT: the shared readers of fields (fields.hpp)

// Parses `body` as one JSON object and hands its fields (only those in `allowed`) to `read`, which refuses what is
// wrong; every refusal becomes a ParseError, and nothing escapes.
template <class T, class Read>
Parsed<T> parse(std::string_view body, const char* request, std::initializer_list<const char*> allowed,
                const Limits& limits, Read&& read) {
  constexpr std::string_view what = "the request's body";
  if (body.size() > limits.max_body_bytes) {
    return ParseError{nullptr, protocol::errc::bad_json,
                      std::string(what) + " has " + std::to_string(body.size()) + " bytes; the most is " +
                          std::to_string(limits.max_body_bytes)};
  }
  if (const std::size_t depth = nesting_depth(body); depth > limits.names.max_depth) {
    return ParseError{nullptr, protocol::errc::bad_json,
                      std::string(what) + " nests arrays and objects " + std::to_string(depth) + " deep; the most is " +
                          std::to_string(limits.names.max_depth)};
  }
  try {
    Json j;
    try {
      j = Json::parse(body.begin(), body.end());
    } catch (const Json::exception& e) {
      return ParseError{nullptr, protocol::errc::bad_json, bad_json_message(body, e, what)};
    }
    if (!j.is_object()) {
      return ParseError{nullptr, protocol::errc::bad_json, std::string(what) + " is " + kind_of(j) +
                                                               "; expected a JSON object"};
    }
    const Fields f(j, request, allowed);
    return read(f);
  } catch (Refusal& r) {
    return ParseError{nullptr, r.code, std::move(r.message)};
  } catch (const std::exception& e) {
    return ParseError{nullptr, protocol::errc::internal_error, std::string("could not read the request: ") + e.what()};
  }
}

std::string password(const Fields& f, const char* key, const Limits& limits) {
  std::string p = f.string(key);
  if (!is_valid_utf8(p)) refuse(errc::bad_password, in_quotes(key) + " is not valid UTF-8");
  if (p.size() < limits.min_password_bytes) {
    refuse(errc::bad_password, in_quotes(key) + " is too short: at least " +
                                   std::to_string(limits.min_password_bytes) + " characters");
  }
  if (p.size() > limits.max_password_bytes) {
    refuse(errc::bad_password, in_quotes(key) + " is too long: at most " + std::to_string(limits.max_password_bytes) +
                                   " bytes");
  }
  return p;
}

std::vector<std::string> seats(const Fields& f, const Limits& limits) {
  if (f.find("seats") == nullptr) return {};
  return token_list(f, limits.names, "seats");
}

// A passkey's name: optional, trimmed, fit to show; empty means "name it for me".
std::string label(const Fields& f, const Limits& limits) {
  const auto raw = f.optional_string("label");
  if (!raw || trim_spaces(*raw).empty()) return {};
  protocol::Limits l = limits.names;
  l.max_name_chars = limits.max_label_chars;
  return display_name("label", *raw, l);
}

// A base64url field of a passkey's answer (the characters only: what it decodes to is the verifier's to judge).
std::string b64url(const Json& object, const char* key, bool required, const Limits& limits) {
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) {
    if (required) refuse(protocol::errc::bad_message, "missing field \"passkey." + std::string(key) + "\"");
    return {};
  }
  if (!it->is_string()) {
    refuse(protocol::errc::bad_message, "\"passkey." + std::string(key) + "\" must be a string, got " + kind_of(*it));
  }
  return identifier("passkey." + std::string(key), it->get<std::string>(), limits.max_credential_chars);
}

PasskeyAnswer passkey(const Fields& f, bool registration, const Limits& limits) {
  const Json p = f.object("passkey", true);
  static constexpr const char* kRegistration[] = {"id", "clientDataJSON", "attestationObject"};
  static constexpr const char* kAssertion[] = {"id", "clientDataJSON", "authenticatorData", "signature", "userHandle"};
  for (const auto& [key, value] : p.items()) {
    bool known = false;
    for (const char* k : registration ? std::span<const char* const>(kRegistration) : std::span<const char* const>(kAssertion)) {
      known = known || key == k;
    }
    if (!known) refuse(protocol::errc::bad_message, "unknown field " + in_quotes("passkey." + excerpt(key, 40)));
  }
  PasskeyAnswer a;
  a.id = b64url(p, "id", true, limits);
  a.client_data_json = b64url(p, "clientDataJSON", true, limits);
  if (registration) {
    a.attestation_object = b64url(p, "attestationObject", true, limits);
  } else {
    a.authenticator_data = b64url(p, "authenticatorData", true, limits);
    a.signature = b64url(p, "signature", true, limits);
    a.user_handle = b64url(p, "userHandle", false, limits);
  }
  return a;
}

std::string name(const Fields& f, const Limits& limits) { return display_name("name", f.string("name"), limits.names); }

}  // namespace

std::string name_key(std::string_view name) {
  if (!is_valid_utf8(name)) return {};
  std::size_t length = 0;
  // NULL language: the locale-independent folding; NFKC: compatibility forms (full-width letters, ligatures,
  // the many spaces) become their plain ones.
  std::unique_ptr<uint8_t, decltype(&std::free)> folded(
      u8_casefold(reinterpret_cast<const uint8_t*>(name.data()), name.size(), nullptr, UNINORM_NFKC, nullptr, &length),
      &std::free);
  if (!folded) throw std::bad_alloc();  // libunistring fails only for want of memory (the input is valid UTF-8)
  const std::string_view text(reinterpret_cast<const char*>(folded.get()), length);
  std::string key;
  key.reserve(text.size());
  for (char c : text) {
    if (c == ' ' && (key.empty() || key.back() == ' ')) continue;
    key += c;
  }
  while (!key.empty() && key.back() == ' ') key.pop_back();
  return key;
}

Parsed<PasswordSignUp> parse_password_sign_up(std::string_view body, const Limits& limits) {
  return parse<PasswordSignUp>(body, "sign up", {"name", "password", "seats"}, limits, [&](const Fields& f) {
    return PasswordSignUp{name(f, limits), password(f, "password", limits), seats(f, limits)};
  });
}

Parsed<PasswordSignIn> parse_password_sign_in(std::string_view body, const Limits& limits) {
  return parse<PasswordSignIn>(body, "sign in", {"name", "password", "seats"}, limits, [&](const Fields& f) {
    // Any name and any password of a sane length are read: whether they match is the server's answer, and it
    // says the same for an unknown name as for a wrong password.
    std::string n = f.string("name");
    if (n.size() > 4 * limits.names.max_name_chars) refuse(protocol::errc::bad_name, "\"name\" is too long");
    std::string p = f.string("password");
    if (p.size() > limits.max_password_bytes) {
      refuse(errc::bad_password, "\"password\" is too long: at most " + std::to_string(limits.max_password_bytes) +
                                     " bytes");
    }
    return PasswordSignIn{std::move(n), std::move(p), seats(f, limits)};
  });
}

Parsed<PasskeyOptions> parse_passkey_options(std::string_view body, const Limits& limits) {
  return parse<PasskeyOptions>(body, "passkey options", {"purpose", "name"}, limits, [&](const Fields& f) {
    PasskeyOptions o{f.string("purpose"), std::nullopt};
    if (o.purpose != "sign_up" && o.purpose != "sign_in" && o.purpose != "add") {
      refuse(protocol::errc::bad_message, "\"purpose\" must be \"sign_up\", \"sign_in\" or \"add\"");
    }
    if (o.purpose == "sign_up") {
      o.name = name(f, limits);
    } else if (f.find("name") != nullptr) {
      refuse(protocol::errc::bad_message, "\"name\" goes only with the purpose \"sign_up\"");
    }
    return o;
  });
}

Parsed<PasskeySignUp> parse_passkey_sign_up(std::string_view body, const Limits& limits) {
  return parse<PasskeySignUp>(body, "passkey sign up", {"name", "label", "passkey", "seats"}, limits,
                              [&](const Fields& f) {
                                return PasskeySignUp{name(f, limits), label(f, limits), passkey(f, true, limits),
                                                     seats(f, limits)};
                              });
}

Parsed<PasskeySignIn> parse_passkey_sign_in(std::string_view body, const Limits& limits) {
  return parse<PasskeySignIn>(body, "passkey sign in", {"passkey", "seats"}, limits, [&](const Fields& f) {
    return PasskeySignIn{passkey(f, false, limits), seats(f, limits)};
  });
}

Parsed<PasskeyAdd> parse_passkey_add(std::string_view body, const Limits& limits) {
  return parse<PasskeyAdd>(body, "add passkey", {"label", "passkey"}, limits, [&](const Fields& f) {
    return PasskeyAdd{label(f, limits), passkey(f, true, limits)};
  });
}

Parsed<PasskeyRename> parse_passkey_rename(std::string_view body, const Limits& limits) {
  return parse<PasskeyRename>(body, "rename passkey", {"id", "label"}, limits, [&](const Fields& f) {
    PasskeyRename r{identifier("id", f.string("id"), limits.max_credential_chars), label(f, limits)};
    if (r.label.empty()) refuse(protocol::errc::bad_name, "\"label\" is empty (after trimming spaces)");
    return r;
  });
}

Parsed<PasskeyRemove> parse_passkey_remove(std::string_view body, const Limits& limits) {
  return parse<PasskeyRemove>(body, "remove passkey", {"id"}, limits, [&](const Fields& f) {
    return PasskeyRemove{identifier("id", f.string("id"), limits.max_credential_chars)};
  });
}

Parsed<SetPassword> parse_set_password(std::string_view body, const Limits& limits) {
  return parse<SetPassword>(body, "set password", {"current", "password"}, limits, [&](const Fields& f) {
    SetPassword s{std::nullopt, password(f, "password", limits)};
    if (const auto current = f.optional_string("current")) {
      if (current->size() > limits.max_password_bytes) refuse(errc::bad_password, "\"current\" is too long");
      s.current = *current;
    }
    return s;
  });
}

Parsed<SessionSignOut> parse_session_sign_out(std::string_view body, const Limits& limits) {
  return parse<SessionSignOut>(body, "sign a session out", {"id"}, limits, [&](const Fields& f) {
    return SessionSignOut{required_identifier(f, "id", limits.names)};
  });
}

Parsed<ClaimSeats> parse_claim_seats(std::string_view body, const Limits& limits) {
  return parse<ClaimSeats>(body, "claim seats", {"seats"}, limits, [&](const Fields& f) {
    return ClaimSeats{token_list(f, limits.names, "seats")};
  });
}

Parsed<DeleteAccount> parse_delete_account(std::string_view body, const Limits& limits) {
  return parse<DeleteAccount>(body, "delete account", {"name"}, limits, [&](const Fields& f) {
    std::string n = f.string("name");
    if (n.size() > 4 * limits.names.max_name_chars) refuse(protocol::errc::bad_name, "\"name\" is too long");
    return DeleteAccount{std::move(n)};
  });
}

Parsed<ModerationAct> parse_moderation_act(std::string_view body, const Limits& limits) {
  return parse<ModerationAct>(body, "moderation", {"report", "name", "action", "reason", "hours"}, limits,
                              [&](const Fields& f) {
    ModerationAct m;
    m.report = f.optional_string("report").value_or("");
    m.name = f.optional_string("name").value_or("");
    if (m.report.empty() == m.name.empty()) refuse(protocol::errc::bad_message, "name a \"report\" or an account's \"name\" (one)");
    m.action = f.string("action");
    if (m.action != "dismiss" && m.action != "warn" && m.action != "mute" && m.action != "suspend") {
      refuse(protocol::errc::bad_message, "\"action\" is one of dismiss, warn, mute, suspend");
    }
    if (m.action == "dismiss" && m.report.empty()) refuse(protocol::errc::bad_message, "only a report is dismissed");
    m.reason = f.string("reason");
    if (m.reason.empty() || m.reason.size() > 2000 || !is_valid_utf8(m.reason)) {
      refuse(protocol::errc::bad_message, "\"reason\" is what the account will be told: 1 to 500 characters");
    }
    const bool timed = m.action == "mute" || m.action == "suspend";
    if (timed) m.hours = f.integer("hours", 1, "hours from 1 to 8760");
    if (timed && m.hours > 8760) refuse(protocol::errc::bad_message, "\"hours\" is at most 8760 (a year)");
    return m;
  });
}

}  // namespace emporium::protocol::accounts
