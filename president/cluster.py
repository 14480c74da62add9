"""Work on an existing Dask distributed cluster: reach the scheduler, run batches, results in order.

Shared by `president tournament --cluster` (president.arena.cluster) and `president conform
--cluster` (president.conform.jobs). A caller cuts its work into batches whose results depend only
on the batch (never on which worker runs it, nor when), so the merged result equals a local run.
Batches are submitted to whatever workers the scheduler has and their results put back in batch
order. When a worker is lost, the scheduler runs its unfinished batches again on another worker
(Dask's own recovery; a batch that kills `allowed-failures` workers is reported as an error).
Workers must have this package installed (the `[cluster]` extra).
"""
from __future__ import annotations

import socket
import struct
import threading
import time
from typing import Any, Callable, Sequence, TypeVar

from .errors import PresidentError

#: Seconds to reach the scheduler (`--connect-timeout`).
DEFAULT_CONNECT_TIMEOUT = 10.0

B = TypeVar("B")
R = TypeVar("R")


class ClusterError(PresidentError):
    """The cluster could not be reached or could not run the work."""


def reach(address: str, timeout: float = DEFAULT_CONNECT_TIMEOUT) -> None:
    """Refuse at once an address Dask cannot parse, and within `timeout` seconds a scheduler nobody
    answers for (a TCP connection, name resolution included), with one line (`ClusterError`)."""
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address)
        host, port = parse_host_port(location) if scheme in ("tcp", "tls") else (None, None)
    except (ValueError, TypeError) as exc:
        raise ClusterError(f"{address!r} is not a Dask scheduler address like tcp://host:8786 ({exc})") from None
    if host is not None and not (isinstance(port, int) and 0 < port < 65536):
        raise ClusterError(f"Dask scheduler {address!r}: the port must be 1 to 65535, like tcp://host:8786")
    if host is None:  # another transport (inproc, ucx, ws): Dask's own connect, within the timeout
        return
    deadline = time.monotonic() + timeout
    outcome: list[str | None] = []

    def connect() -> None:
        try:
            sock = socket.create_connection((host, port), timeout=timeout)
        except (socket.timeout, TimeoutError):
            return outcome.append(f"no answer within {timeout:g} s (allow a longer connect timeout for a slow network)")
        except (OSError, ValueError, OverflowError, UnicodeError) as exc:
            return outcome.append(getattr(exc, "strerror", None) or str(exc) or type(exc).__name__)
        try:  # a Dask scheduler speaks first: the size of its handshake, 8 bytes (plain tcp only)
            head = b""
            while scheme == "tcp" and len(head) < 8:
                sock.settimeout(max(0.01, deadline - time.monotonic()))
                chunk = sock.recv(8 - len(head))
                if not chunk:
                    return outcome.append("the connection was closed at once: not a Dask scheduler")
                head += chunk
            size = struct.unpack("<Q", head)[0] if head else 1
            outcome.append(None if 0 < size < 1 << 24 else "something answers, but not as a Dask scheduler does")
        except (socket.timeout, TimeoutError):
            outcome.append(f"connected, but nothing answered within {timeout:g} s: not a Dask scheduler?")
        except OSError as exc:
            outcome.append(exc.strerror or str(exc))
        finally:
            sock.close()

    thread = threading.Thread(target=connect, daemon=True)  # name resolution has no timeout of its own
    thread.start()
    thread.join(timeout + 0.5)  # the thread's own steps end by the deadline; the margin lets it say which one
    if not outcome:
        outcome.append(f"no answer within {timeout:g} s (allow a longer connect timeout for a slow network)")
    if outcome[0] is not None:
        raise ClusterError(f"cannot reach the Dask scheduler at {address!r}: {outcome[0]} "
                           "(check the scheduler address and that the scheduler is running)")


def _discard_failed_client(exc: BaseException, client_type: type) -> None:
    """A Client whose constructor failed would try to close itself at exit, wait twice its timeout
    and print a traceback: mark it closed (there is nothing to close) and stop its loop thread."""
    tb = exc.__traceback__
    while tb is not None:
        obj = tb.tb_frame.f_locals.get("self")
        if isinstance(obj, client_type):
            obj.status = "closed"  # type: ignore[attr-defined]
            try:
                obj._loop_runner.stop()  # type: ignore[attr-defined]
            except Exception:  # noqa: BLE001 - best effort
                pass
        tb = tb.tb_next


def connect(address: str, timeout: float = DEFAULT_CONNECT_TIMEOUT) -> Any:
    """A `dask.distributed.Client` of the scheduler at `address` (close it when done); an
    unreachable or wrong scheduler is a one-line `ClusterError` within about `timeout` seconds."""
    try:
        from dask.distributed import Client
    except ImportError as exc:  # pragma: no cover - the [cluster] extra is not installed
        raise ClusterError("running on a cluster needs Dask distributed: pip install 'president[cluster]'") from exc
    reach(address, timeout)
    try:
        return Client(address, timeout=timeout, set_as_default=False)
    except Exception as exc:  # noqa: BLE001 - whatever Dask raises, one line
        _discard_failed_client(exc, Client)
        if isinstance(exc, (OSError, TimeoutError)):
            raise ClusterError(f"cannot reach the Dask scheduler at {address!r}: {str(exc)[:200]} (is the scheduler "
                               "running? allow a longer connect timeout for a slow network)") from None
        raise ClusterError(f"something answers at {address!r}, but not as a Dask scheduler does ({type(exc).__name__} "
                           "reading its reply); check the scheduler address and port") from None


def run_batches(address: str, run: Callable[[B], R], batches: Sequence[B] | Callable[[int], Sequence[B]],
                describe: Callable[[B], str], progress: Callable[[B, R], None] | None = None,
                timeout: float = DEFAULT_CONNECT_TIMEOUT) -> list[R]:
    """`run(batch)` for every batch on the cluster at `address`, the results in batch order.

    `batches` may be a function of the cluster's worker threads (to keep them all busy). `run` and
    the batches travel to the workers (cloudpickle): a function and plain data. `progress(batch,
    result)` is called here as each batch completes. A batch that fails is a `ClusterError` naming
    it (`describe(batch)`, e.g. "games 16-31"), with the task's own error."""
    from dask.distributed import as_completed

    client = connect(address, timeout)
    try:
        todo = list(batches(sum(client.nthreads().values()) or 1) if callable(batches) else batches)
        out: list[Any] = [None] * len(todo)
        futures = {client.submit(run, b, pure=False): k for k, b in enumerate(todo)}
        for fut in as_completed(list(futures), loop=client.loop):
            k = futures[fut]
            try:
                out[k] = fut.result()
            except Exception as exc:  # noqa: BLE001 - a task error or a batch that keeps killing workers
                raise ClusterError(f"{describe(todo[k])} failed on the cluster: {type(exc).__name__}: "
                                   f"{str(exc)[:300]}") from exc
            if progress:
                progress(todo[k], out[k])
        return out
    finally:
        client.close()
