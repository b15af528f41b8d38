# nginx from Debian's package with raspisnoy's configuration (deploy/nginx.conf).
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends nginx \
    && rm -rf /var/lib/apt/lists/*
COPY deploy/nginx.conf /etc/raspisnoy/nginx.conf
COPY deploy/nginx-start /usr/local/bin/nginx-start
CMD ["nginx-start"]
