"""`turnpost serve` with its inbound SMTP port taken says so in one line, at once."""
import socket

from click.testing import CliRunner

from workers.cli import main


def test_serve_with_the_inbound_port_taken_stops_with_one_clear_line(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--port", "0"], env={
            "INBOUND_SMTP_PORT": str(port), "DATABASE_URL": f"sqlite:///{tmp_path}/never-made.db"})
    assert result.exit_code == 1 and result.exception is not None and isinstance(result.exception, SystemExit)
    lines = result.output.strip().splitlines()
    assert lines == [f"Error: the inbound SMTP port 127.0.0.1:{port} is in use (another turnpost serve?); "
                     "set INBOUND_SMTP_PORT to a free port"]
    assert not (tmp_path / "never-made.db").exists()  # nothing was started
