{{/*
The chart name, within the 63 characters of a DNS label.
*/}}
{{- define "suite.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The full name: the prefix of every resource name. The release name alone when it already
contains the chart name.
*/}}
{{- define "suite.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Chart name and version, for the helm.sh/chart label.
*/}}
{{- define "suite.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Labels of the release-wide resources (ConfigMap, Secret, ServiceAccount).
*/}}
{{- define "suite.labels" -}}
helm.sh/chart: {{ include "suite.chart" . }}
{{ include "suite.selectorLabels" . }}
{{- if .Chart.AppVersion }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/*
Selector labels of the release-wide resources: name and instance only.
*/}}
{{- define "suite.selectorLabels" -}}
app.kubernetes.io/name: {{ include "suite.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/*
The name of one service's resources (Deployment, Service, HPA, PDB, NetworkPolicy).
The full name is cut so that the service's own suffix always survives the 63-character limit
and two services never end up with the same name.
Call with (dict "root" $ "name" "<service>").
*/}}
{{- define "suite.componentName" -}}
{{- $prefix := include "suite.fullname" .root | trunc (int (sub 62 (len .name))) | trimSuffix "-" }}
{{- printf "%s-%s" $prefix .name }}
{{- end }}

{{/*
Labels of one service's resources. app.kubernetes.io/name is the service, so that the nine
Deployments select disjoint pods; app.kubernetes.io/part-of names the suite, so that a
NetworkPolicy can select every pod of the release.
Call with (dict "root" $ "name" "<service>").
*/}}
{{- define "suite.componentLabels" -}}
helm.sh/chart: {{ include "suite.chart" .root }}
{{ include "suite.componentSelectorLabels" . }}
app.kubernetes.io/component: {{ .name }}
app.kubernetes.io/part-of: {{ include "suite.name" .root }}
{{- if .root.Chart.AppVersion }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
{{- end }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
{{- with .root.Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/*
Selector labels of one service: name and instance only.
Call with (dict "root" $ "name" "<service>").
*/}}
{{- define "suite.componentSelectorLabels" -}}
app.kubernetes.io/name: {{ .name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- end }}

{{/*
Selects every pod of this release (and only those): what the NetworkPolicies let in.
*/}}
{{- define "suite.releasePodLabels" -}}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/part-of: {{ include "suite.name" . }}
{{- end }}

{{/*
Whether a service is enabled: it has a block under `services` that does not say enabled: false.
Call with the service's block; renders "true" or nothing.
*/}}
{{- define "suite.enabled" -}}
{{- if and (kindIs "map" .) (or (not (hasKey . "enabled")) .enabled) }}true{{ end }}
{{- end }}

{{/*
The effective settings of one service: `defaults` with the service's own block merged over it
(maps key by key, lists and plain values replaced). Renders YAML; read it with fromYaml.
Call with (dict "root" $ "name" "<service>").
*/}}
{{- define "suite.serviceConfig" -}}
{{- $own := get .root.Values.services .name | default dict }}
{{- $own = omit $own "enabled" "image" "externalUrl" }}
{{- toYaml (mergeOverwrite (deepCopy .root.Values.defaults) (deepCopy $own)) }}
{{- end }}

{{/*
The image of one service: <registry>/<repository>:<tag>, or @<digest> when a digest is given.
Call with (dict "root" $ "name" "<service>").
*/}}
{{- define "suite.image" -}}
{{- $own := (get .root.Values.services .name | default dict).image | default dict }}
{{- $registry := $own.registry | default .root.Values.image.registry | trimSuffix "/" }}
{{- $repository := $own.repository | default .name }}
{{- if $own.digest }}
{{- printf "%s/%s@%s" $registry $repository $own.digest }}
{{- else }}
{{- $tag := $own.tag | default .root.Values.image.tag | default .root.Chart.AppVersion }}
{{- printf "%s/%s:%v" $registry $repository $tag }}
{{- end }}
{{- end }}

{{/*
Where the gateway reaches one service: the in-cluster Service, or `externalUrl` of the
service's block (for a service that is disabled here and runs elsewhere).
Call with (dict "root" $ "name" "<service>").
*/}}
{{- define "suite.serviceUrl" -}}
{{- $own := get .root.Values.services .name | default dict }}
{{- if $own.externalUrl }}
{{- $own.externalUrl }}
{{- else }}
{{- $config := include "suite.serviceConfig" . | fromYaml }}
{{- printf "http://%s:%v" (include "suite.componentName" .) $config.service.port }}
{{- end }}
{{- end }}

{{/*
The ServiceAccount the pods run as.
*/}}
{{- define "suite.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "suite.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/*
Whether the chart creates its own Secret: renders "true" or nothing.
*/}}
{{- define "suite.createSecret" -}}
{{- if not .Values.secrets.existingSecret }}true{{ end }}
{{- end }}

{{/*
The Secret holding SUITE_INTERNAL_TOKEN_PRIVATE_KEY, SUITE_INTERNAL_TOKEN_PUBLIC_KEY, SUITE_CURSOR_SECRET and SUITE_WEBHOOK_SECRET_KEY.
*/}}
{{- define "suite.secretName" -}}
{{- default (include "suite.fullname" .) .Values.secrets.existingSecret }}
{{- end }}

{{/*
The Secret and key holding the database password, as a secretKeyRef body.
*/}}
{{- define "suite.dbPasswordRef" -}}
{{- if .Values.postgres.passwordSecret.name }}
name: {{ .Values.postgres.passwordSecret.name }}
key: {{ .Values.postgres.passwordSecret.key }}
{{- else }}
name: {{ include "suite.secretName" . }}
key: SUITE_DB_PASSWORD
{{- end }}
{{- end }}

{{/*
Facts about the services' code rather than deployment choices: the gateway keeps no database
(its pom excludes R2DBC and Flyway), only webhook-service encrypts webhook secrets, and only the
gateway routes to the other services.
*/}}
{{- define "suite.usesDatabase" -}}
{{- if ne . "gateway" }}true{{ end }}
{{- end }}

{{/* Only the gateway signs internal tokens: no other pod gets the private key. */}}
{{- define "suite.signsInternalTokens" -}}
{{- if eq . "gateway" }}true{{ end }}
{{- end }}

{{/* auth-service keeps a JDBC pool (HikariCP, spring.datasource.*) besides the R2DBC one. */}}
{{- define "suite.usesJdbcPool" -}}
{{- if eq . "auth-service" }}true{{ end }}
{{- end }}

{{- define "suite.usesWebhookKey" -}}
{{- if eq . "webhook-service" }}true{{ end }}
{{- end }}

{{/* The gateway routes to every service; mcp-service's tools read their REST endpoints. */}}
{{/* Where the gateway and mcp-service find each service, as JSON (suite.services). Every service is
     listed, enabled or not, because the gateway builds a route to each. */}}
{{- define "suite.serviceLocationsJson" -}}
{{- $locations := dict }}
{{- range $name, $service := .Values.services }}
{{- if ne $name "gateway" }}
{{- $_ := set $locations $name (include "suite.serviceUrl" (dict "root" $ "name" $name)) }}
{{- end }}
{{- end }}
{{- $locations | toJson }}
{{- end }}

{{- define "suite.routesToServices" -}}
{{- if or (eq . "gateway") (eq . "mcp-service") }}true{{ end }}
{{- end }}

{{/* Only the gateway counts rate limits (suite.rate-limit.*, spring.data.redis.*). */}}
{{- define "suite.limitsRates" -}}
{{- if eq . "gateway" }}true{{ end }}
{{- end }}

{{/*
Whether Kafka clients authenticate with SASL / talk TLS: renders "true" or nothing.
*/}}
{{- define "suite.kafkaSasl" -}}
{{- if hasPrefix "SASL_" .Values.kafka.securityProtocol }}true{{ end }}
{{- end }}

{{- define "suite.kafkaTls" -}}
{{- if has .Values.kafka.securityProtocol (list "SSL" "SASL_SSL") }}true{{ end }}
{{- end }}

{{/* Where the Kafka and PostgreSQL CA certificates are mounted (read-only, from their Secrets). */}}
{{- define "suite.kafkaCaDir" -}}/etc/suite/kafka-ca{{- end }}
{{- define "suite.postgresCaDir" -}}/etc/suite/postgres-ca{{- end }}

{{/*
The JAAS line of the Kafka clients' SASL login. The password is not in it: Kubernetes expands
$(KAFKA_SASL_PASSWORD), declared just before from a secretKeyRef, when it starts the container.
*/}}
{{- define "suite.kafkaJaasConfig" -}}
{{- $module := "org.apache.kafka.common.security.scram.ScramLoginModule" }}
{{- if eq .Values.kafka.sasl.mechanism "PLAIN" }}
{{- $module = "org.apache.kafka.common.security.plain.PlainLoginModule" }}
{{- end }}
{{- printf "%s required username=\"%s\" password=\"$(KAFKA_SASL_PASSWORD)\";" $module .Values.kafka.sasl.username }}
{{- end }}

{{/*
The gateway's replica count for the Redis fallback (suite.rate-limit.replicas): each replica admits
limit / replicas while Redis is down. The largest number of replicas that may run (the autoscaler's
maxReplicas, else replicaCount) keeps the replicas' sum within the limit whatever the autoscaler does.
*/}}
{{- define "suite.rateLimitReplicas" -}}
{{- if .Values.rateLimit.replicas }}
{{- .Values.rateLimit.replicas }}
{{- else }}
{{- $config := include "suite.serviceConfig" (dict "root" . "name" "gateway") | fromYaml }}
{{- if $config.autoscaling.enabled }}
{{- $config.autoscaling.maxReplicas }}
{{- else }}
{{- max 1 (int $config.replicaCount) }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Cross-field rules that values.schema.json cannot state clearly. Rendered for its failures only.
*/}}
{{- define "suite.validate" -}}
{{- if not .Values.secrets.existingSecret }}
{{- if or (not .Values.secrets.internalTokenPrivateKey) (not .Values.secrets.internalTokenPublicKey) }}
{{- fail "secrets.internalTokenPrivateKey and secrets.internalTokenPublicKey must be set (or set secrets.existingSecret)" }}
{{- end }}
{{- if lt (len .Values.secrets.cursorSecret) 32 }}
{{- fail "secrets.cursorSecret must be at least 32 characters (or set secrets.existingSecret)" }}
{{- end }}
{{- if and (include "suite.enabled" (get .Values.services "webhook-service")) (not .Values.secrets.webhookSecretKey) }}
{{- fail "secrets.webhookSecretKey must be set for webhook-service (or set secrets.existingSecret)" }}
{{- end }}
{{- if and (not .Values.postgres.passwordSecret.name) (not .Values.postgres.password) }}
{{- fail "postgres.password must be set (or set postgres.passwordSecret.name or secrets.existingSecret)" }}
{{- end }}
{{- end }}
{{- with .Values.secrets.webhookSecretKey }}
{{- if not (has (len (b64dec .)) (list 16 24 32)) }}
{{- fail "secrets.webhookSecretKey must be the base64 of a 16, 24 or 32-byte AES key" }}
{{- end }}
{{- end }}
{{- if include "suite.kafkaSasl" . }}
{{- if or (not .Values.kafka.sasl.username) (not .Values.kafka.sasl.passwordSecret.name) }}
{{- fail (printf "kafka.securityProtocol %s needs kafka.sasl.username and kafka.sasl.passwordSecret.name" .Values.kafka.securityProtocol) }}
{{- end }}
{{- end }}
{{- if and .Values.kafka.tls.caSecret.name (not (include "suite.kafkaTls" .)) }}
{{- fail "kafka.tls.caSecret is used with kafka.securityProtocol SSL or SASL_SSL only" }}
{{- end }}
{{- if and (hasPrefix "verify-" .Values.postgres.sslMode) (not .Values.postgres.tls.caSecret.name) }}
{{- fail (printf "postgres.sslMode %s needs postgres.tls.caSecret.name: the drivers have no default CA file in the image" .Values.postgres.sslMode) }}
{{- end }}
{{- if and .Values.postgres.tls.caSecret.name (eq .Values.postgres.sslMode "disable") }}
{{- fail "postgres.tls.caSecret needs postgres.sslMode require, verify-ca or verify-full" }}
{{- end }}
{{- if and (eq .Values.rateLimit.store "redis") (not .Values.rateLimit.redis.url) }}
{{- fail "rateLimit.store redis needs rateLimit.redis.url" }}
{{- end }}
{{- if and .Values.networkPolicy.enabled .Values.networkPolicy.webhookEgress.enabled (not .Values.networkPolicy.egress) }}
{{- fail "networkPolicy.webhookEgress adds to networkPolicy.egress: set the DNS, Kafka and PostgreSQL rules there too (see the chart README, \"Egress\")" }}
{{- end }}
{{- end }}
