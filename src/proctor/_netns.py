"""A private network: a Linux network namespace with only loopback up.

The browser runs in one, and so does a jailed ``command:`` agent (``agents/_net.py``).

Chromium runs inside this namespace (through a tiny wrapper that ``nsenter``s it
before exec), and the fixture server listens on a socket made inside it. So the
kernel, not a browser setting, decides what the browser can reach:

- the namespace has no interface but ``lo``, so no packet to any other address
  can be routed (STUN/TURN, mDNS, DNS, any UDP or TCP to the outside: ENETUNREACH);
- nothing listens on its loopback but the fixture server, so no other local
  service (another loopback port of the machine) exists for the browser;
- Playwright talks to Chromium over a pipe, so the driver needs no network.

Making a namespace needs CAP_SYS_ADMIN (root, as on the CI machines). Where it
is refused, ``SealedNetwork.create`` raises and the worker falls back to the
browser-side locks only, recording ``seal: partial`` in run.json.

The namespace is created from a short-lived thread (``unshare`` changes only the
calling thread's namespace), kept alive by an open descriptor, and entered by
path ``/proc/<pid>/fd/<fd>``; closing the descriptor and the sockets made in it
frees it, and the kernel frees it when this process dies, so nothing leaks.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import os
import shlex
import shutil
import socket
import struct
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

from proctor.errors import ComputerError

CLONE_NEWNET = 0x40000000
SIOCGIFFLAGS = 0x8913
SIOCSIFFLAGS = 0x8914
IFF_UP = 0x1
_IFREQ = "16sh14x"


@dataclass
class SealedNetwork:
    """One private network namespace and the browser wrapper that enters it."""

    fd: int
    pid: int
    folder: Path
    sockets: list[socket.socket] = field(default_factory=list)

    @property
    def path(self) -> str:
        """The namespace as a path ``nsenter --net=`` accepts."""
        return f"/proc/{self.pid}/fd/{self.fd}"

    @classmethod
    def create(cls) -> SealedNetwork:
        """A new namespace with loopback up.

        Raises:
            ComputerError: when the machine refuses a new network namespace, or
                ``nsenter`` is missing.
        """
        if shutil.which("nsenter") is None:
            raise ComputerError("nsenter (util-linux) is not installed")
        out: dict[str, int | str] = {}

        def make() -> None:
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.unshare(CLONE_NEWNET) != 0:
                out["error"] = os.strerror(ctypes.get_errno())
                return
            try:
                out["fd"] = os.open(f"/proc/self/task/{threading.get_native_id()}/ns/net", 0)
                _loopback_up()
            except OSError as exc:
                out["error"] = str(exc)

        thread = threading.Thread(target=make, name="proctor-netns")
        thread.start()
        thread.join()
        if "error" in out:
            fd = out.get("fd")
            if isinstance(fd, int):
                os.close(fd)
            raise ComputerError(f"a private network namespace was refused: {out['error']}")
        folder = Path(tempfile.mkdtemp(prefix="proctor-seal-"))
        return cls(fd=int(out["fd"]), pid=os.getpid(), folder=folder)

    def listen(self, port: int, host: str = "127.0.0.1") -> socket.socket:
        """A TCP socket listening on ``host``:``port`` inside the namespace (port 0: any)."""
        made: dict[str, socket.socket | str] = {}

        def bind() -> None:
            try:
                _setns(self.fd)
                sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                sock.bind((host, port))
                sock.listen(128)
                made["sock"] = sock
            except OSError as exc:
                made["error"] = str(exc)

        # setns moves only the calling thread, which then ends: this one never moves.
        thread = threading.Thread(target=bind, name="proctor-netns-bind")
        thread.start()
        thread.join()
        sock = made.get("sock")
        if not isinstance(sock, socket.socket):
            raise ComputerError(f"could not listen inside the private network: {made['error']}")
        self.sockets.append(sock)
        return sock

    def wrapper(self, binary: Path) -> Path:
        """An executable that runs ``binary`` inside the namespace (Playwright's executable)."""
        script = self.folder / "chromium-sealed"
        nsenter = shutil.which("nsenter") or "nsenter"
        script.write_text(
            "#!/bin/sh\n"
            "# proctor: run the browser in its private network (see computer/_netns.py)\n"
            f"exec {shlex.quote(nsenter)} --net={shlex.quote(self.path)} -- "
            f'{shlex.quote(str(binary))} "$@"\n'
        )
        script.chmod(0o700)
        return script

    def close(self) -> None:
        """Free the namespace: its descriptor, its sockets and the wrapper's folder."""
        for sock in self.sockets:
            with contextlib.suppress(OSError):
                sock.close()
        self.sockets.clear()
        if self.fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = -1
        shutil.rmtree(self.folder, ignore_errors=True)


def _setns(fd: int) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.setns(fd, CLONE_NEWNET) != 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))


def _loopback_up() -> None:
    """Bring ``lo`` up in the calling thread's namespace (what ``ip link set lo up`` does)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        request = struct.pack(_IFREQ, b"lo", 0)
        flags = struct.unpack(_IFREQ, fcntl.ioctl(sock, SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(sock, SIOCSIFFLAGS, struct.pack(_IFREQ, b"lo", flags | IFF_UP))
