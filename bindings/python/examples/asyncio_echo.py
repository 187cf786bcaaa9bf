"""A client and a server exchanging JTOO frames over asyncio streams.

The client greets the server (protocol "demo/1"), then sends requests; the
server answers each with a frame holding the sum of the request's numbers.
Run it: python3 examples/asyncio_echo.py  (prints each exchange and "ok").
"""

import asyncio
import decimal

import jtoo


async def read_frames(reader, decoder):
    """Yields frames as they arrive (FrameDecoder holds partial frames)."""
    while True:
        data = await reader.read(4096)
        if not data:
            decoder.eof()  # raises jtoo.FrameError on a truncated frame
            return
        for frame in decoder.feed(data):
            yield frame


async def handle(reader, writer, done):
    frames = read_frames(reader, jtoo.FrameDecoder())
    try:
        greeting = await frames.__anext__()
        protocol, fields = jtoo.decode_greeting(greeting)
        if protocol != "demo/1":
            writer.write(jtoo.UNSUPPORTED_PROTOCOL_REPLY)
            return
        async for frame in frames:
            request = frame.value()
            total = sum(request["numbers"])  # int and Decimal stay exact
            reply = {"id": request["id"], "sum": total, "attachment": len(frame.binary)}
            writer.write(jtoo.encode_frame(reply))
            await writer.drain()
    except jtoo.FrameError as e:
        writer.write(jtoo.encode_frame({"error": str(e)}))
    finally:
        writer.close()
        await writer.wait_closed()
        done.set()


async def client(port, requests):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(jtoo.encode_greeting("demo/1", {"client": "asyncio_echo"}))
    for i, numbers in enumerate(requests):
        writer.write(jtoo.encode_frame({"id": i, "numbers": numbers}, b"\x00" * i))
    await writer.drain()
    replies = []
    async for frame in read_frames(reader, jtoo.FrameDecoder()):
        replies.append(frame.value())
        if len(replies) == len(requests):
            break
    writer.close()
    await writer.wait_closed()
    return replies


async def main():
    done = asyncio.Event()  # set when the server has closed its connection
    server = await asyncio.start_server(lambda r, w: handle(r, w, done), "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        requests = [[1, 2, 3], [decimal.Decimal("0.1"), decimal.Decimal("0.2")], [10**30, 1]]
        replies = await client(port, requests)
        await asyncio.wait_for(done.wait(), 10)
    for request, reply in zip(requests, replies):
        print(jtoo.dumps(request), "->", jtoo.dumps(reply))
    assert [r["sum"] for r in replies] == [6, decimal.Decimal("0.3"), 10**30 + 1], replies
    assert [r["attachment"] for r in replies] == [0, 1, 2], replies
    print("ok")


if __name__ == "__main__":
    asyncio.run(main())
