# The bot for deployment: the runtime lock only (no test tools), installed with --require-hashes.
#   docker build -t wargame-table .
#   docker run -d --name wargame --env-file .env -v wargame-var:/app/var wargame-table
# See docs/deploy.md ("Docker") and compose.yaml (the bot with an optional PostgreSQL).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1

# Dependencies first, in their own layer: rebuilt only when the lock changes.
COPY requirements.lock /tmp/requirements.lock
RUN python -m venv /opt/venv \
    && /opt/venv/bin/pip install --require-hashes --no-deps -r /tmp/requirements.lock \
    && rm /tmp/requirements.lock

# A non-root user that owns only the database folder.
RUN useradd --system --uid 10001 --user-group --home-dir /app --no-create-home wargame \
    && mkdir -p /app/var \
    && chown wargame:wargame /app/var

WORKDIR /app
COPY bot/ bot/
COPY games/ games/
COPY render/ render/
COPY data/ data/

ENV PATH=/opt/venv/bin:$PATH \
    WARGAME_DB=/app/var/wargame.db
# The SQLite database (and its -wal/-shm files) live here; keep it on a named volume.
VOLUME ["/app/var"]
USER wargame

# Stopped by SIGTERM (docker stop): the bot finishes within its shutdown deadline.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot", "discord"]
