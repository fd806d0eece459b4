# arkbot: the Discord bot in a slim image, running as a non-root user.
# Build:  docker build -t arkbot .
# Run:    docker run -e DISCORD_TOKEN=... -v arkbot-data:/data arkbot
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    ARKBOT_DB=/data/arkbot.sqlite3

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY render ./render
COPY bot ./bot
COPY data ./data
RUN pip install --no-cache-dir -e . \
    && useradd --create-home --uid 10001 arkbot \
    && mkdir -p /data && chown arkbot:arkbot /data

USER arkbot
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
