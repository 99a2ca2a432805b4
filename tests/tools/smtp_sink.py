#!/usr/bin/python3
"""An SMTP server for the tests (Debian's python3-aiosmtpd): every mail it takes becomes a JSON file in a folder,
decoded as a mail program would show it: {"from", "to": [...], "subject", "headers": {name: value}, "text", "html"}.
Files are named by arrival (000001.json, ...) and written whole (renamed into place).

Usage: smtp_sink.py PORT FOLDER  (127.0.0.1; runs until killed)
"""
import asyncio
import email
import email.policy
import json
import os
import sys

from aiosmtpd.controller import Controller


class Folder:
    def __init__(self, folder):
        self.folder = folder
        self.count = len([n for n in os.listdir(folder) if n.endswith(".json")])

    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        text = message.get_body(preferencelist=("plain",))
        html = message.get_body(preferencelist=("html",))
        mail = {
            "from": envelope.mail_from,
            "to": envelope.rcpt_tos,
            "subject": str(message["subject"]),
            "headers": {name: str(value) for name, value in message.items()},
            "text": text.get_content() if text else None,
            "html": html.get_content() if html else None,
        }
        self.count += 1
        path = os.path.join(self.folder, "%06d.json" % self.count)
        with open(path + ".tmp", "w", encoding="utf-8") as f:
            json.dump(mail, f, ensure_ascii=False)
        os.rename(path + ".tmp", path)
        return "250 OK"


def main():
    port, folder = int(sys.argv[1]), sys.argv[2]
    controller = Controller(Folder(folder), hostname="127.0.0.1", port=port)
    controller.start()
    print("smtp sink on 127.0.0.1:%d" % port, flush=True)
    try:
        asyncio.get_event_loop().run_forever()
    except KeyboardInterrupt:
        pass
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
