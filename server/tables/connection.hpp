#pragma once
// A client's connection as the tables layer sees it: the WebSocket session (net/) implements it, so rooms, the
// lobby and the request dispatch never see a socket (and tests put a fake in its place). Frames are whole server
// messages; the implementation frames and writes them, in the order they were queued.
#include <memory>
#include <string>

namespace emporium::server {

class Connection {
 public:
  enum class Close {
    going_away,   // the server is shutting down
    table_moved,  // a table of this connection moved to another node: the client connects again, through the proxy
    signed_out,   // the session the connection was signed in with ended: the client connects again, as who it is now
  };

  // From any thread: queued after everything queued before.
  virtual void send(std::shared_ptr<const std::string> frame) = 0;
  // Two frames of one moment (a mover's ack and the move's events): queued together, so that they leave in one write.
  virtual void send(std::string first, std::shared_ptr<const std::string> second) = 0;
  // From any thread: the connection closes once what is queued is written, telling the client why.
  virtual void close(Close why) = 0;

  // On the connection's strand only, for its own Member:
  virtual void reply(std::string frame) = 0;  // queued at once, before anything sent from now on
  virtual void read_on() = 0;                 // reading resumes after Member::receive paused it
  virtual bool closing() const = 0;           // closed or closing: nothing more is read

 protected:
  ~Connection() = default;
};

}  // namespace emporium::server
