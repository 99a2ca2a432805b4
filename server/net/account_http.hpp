#pragma once
// The HTTP side of the account requests (/api/...; docs/accounts.md): their cookies, the anti-CSRF check, and what
// the people layer is told of the client. Pure functions over header values, so they are tested without sockets.
#include <chrono>
#include <string>
#include <string_view>

namespace emporium::server::account_http {

inline constexpr std::string_view kSessionCookie = "emporium_session";
inline constexpr std::string_view kCsrfCookie = "emporium_csrf";
inline constexpr std::string_view kCsrfHeader = "X-CSRF-Token";

// The value of the cookie `name` in a Cookie header; empty when it is not there.
std::string cookie(std::string_view header, std::string_view name);
// A Set-Cookie value. The session's: HttpOnly (no script reads it), SameSite=Lax (other sites' pages do not send
// it with their requests), Secure over TLS. An empty `value` clears the cookie.
std::string session_cookie(std::string_view value, bool secure, std::chrono::seconds max_age);
// The anti-CSRF token's (a double-submit token: the page reads it from GET /api/session and sends it back in the
// X-CSRF-Token header; a page of another site can do neither). SameSite=Strict, HttpOnly too: the page never
// needs to read the cookie itself.
std::string csrf_cookie(std::string_view value, bool secure);
// Whether a state-changing request carries the token its cookie holds (compared in constant time).
bool csrf_matches(std::string_view cookie_value, std::string_view header_value);
// A short, printable description of a browser for the account page ("Chrome on Linux"); never the whole header.
std::string device_of(std::string_view user_agent);
// The host part of a Host header or an origin's authority ("play.example:8443" -> "play.example", "[::1]:80" ->
// "::1"): the WebAuthn relying party id.
std::string host_of(std::string_view authority);

}  // namespace emporium::server::account_http
