#!/usr/bin/env bash
# Regenerates the ES256 fixtures with the openssl CLI alone (an implementation independent of
# LiftboardAuth's code): a P-256 key, its JWKS (public, and with "d"), and a token signed by
#   openssl dgst -sha256 -sign   (a DER ECDSA-Sig-Value, turned into JWS r || s here).
# The committed files are what the tests read; running this makes new ones (a new key).
set -euo pipefail
cd "$(dirname "$0")"
b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }
hex2b64url() { xxd -r -p | b64url; }

openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out es256.pem 2>/dev/null
# The uncompressed point (04 || x || y) and the private scalar, from the key's text dump.
pub=$(openssl pkey -in es256.pem -text -noout | awk '/^pub:/{f=1;next} /^ASN1 OID/{f=0} f' | tr -d ' :\n')
priv=$(openssl pkey -in es256.pem -text -noout | awk '/^priv:/{f=1;next} /^pub:/{f=0} f' | tr -d ' :\n')
priv=$(printf '%064s' "$priv" | tr ' ' 0 | tail -c 64)
x=$(echo "${pub:2:64}" | hex2b64url); y=$(echo "${pub:66:64}" | hex2b64url); d=$(echo "$priv" | hex2b64url)
printf '{"keys":[{"kty":"EC","crv":"P-256","kid":"ec-1","alg":"ES256","use":"sig","x":"%s","y":"%s"}]}\n' "$x" "$y" > es256.jwks.json
printf '{"keys":[{"kty":"EC","crv":"P-256","kid":"ec-1","x":"%s","y":"%s","d":"%s"}]}\n' "$x" "$y" "$d" > es256-private.jwks.json

header=$(printf '{"alg":"ES256","kid":"ec-1","typ":"JWT"}' | b64url)
payload=$(printf '{"sub":"ada","name":"Ada","exp":2000000000,"iat":1700000000,"boards":["demo","team-*"],"role":"edit"}' | b64url)
input="$header.$payload"
# The DER signature's two INTEGERs, each left-padded (or stripped of its sign byte) to 32 bytes.
printf '%s' "$input" | openssl dgst -sha256 -sign es256.pem -out es256.der
rs=""
for v in $(openssl asn1parse -inform DER -in es256.der | awk -F: '/INTEGER/{print $NF}'); do
  v=$(printf '%064s' "$v" | tr ' ' 0); rs="$rs${v: -64}"
done
printf '%s.%s\n' "$input" "$(echo "$rs" | hex2b64url)" > es256.token
rm es256.der
