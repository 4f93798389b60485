//! [`OtelHook`] (feature `otel`): every compatibility path taken as one
//! OpenTelemetry counter, for a server that already exports metrics
//! (OTLP, Prometheus) through the OpenTelemetry SDK. The feature brings in
//! the `opentelemetry` API crate only (metrics, no default features, no
//! dependencies of its own); the server chooses the SDK and exporter.
//!
//! # The counter
//!
//! - name `mcp_contract.compat.hits` ([`COUNTER`]), a monotonic `u64` sum;
//! - attributes, stable:
//!
//! | attribute | value                                                       |
//! |-----------|-------------------------------------------------------------|
//! | `tool`    | the tool called                                             |
//! | `path`    | the usage key (`field:query`, `default:currency`, `tool:send_report_v2`, `rejected:RESERVED_FIELD`) |
//! | `client`  | `name/version` from `clientInfo` (`claude-desktop/1.2`), `unknown` when the client does not name itself |
//! | `agent`   | the server's agent/tenant label; only when there is one    |
//!
//! `client` is the usage evidence's client key, and OpenTelemetry's
//! Prometheus naming turns the counter into `mcp_contract_compat_hits_total`
//! with labels `tool`, `path`, `client` (and `agent`): exactly what
//! [`usage::prometheus::import`](crate::usage::prometheus::import) reads
//! from a range query (it sums `agent` and other labels away).
//!
//! A hook rather than always on: an instrument is bound to the meter
//! provider it was made from, so the server hands in its meter
//! ([`OtelHook::new`]) or installs the global provider before
//! [`OtelHook::global`].

use opentelemetry::metrics::{Counter, Meter};
use opentelemetry::KeyValue;

use super::caller::Caller;
use super::telemetry::{DeprecationHook, Usage};

/// The counter's name.
pub const COUNTER: &str = "mcp_contract.compat.hits";
/// The instrumentation scope [`OtelHook::global`] uses.
pub const SCOPE: &str = "mcp-contract";

/// Counts compatibility paths in an OpenTelemetry counter.
#[derive(Debug, Clone)]
pub struct OtelHook {
    counter: Counter<u64>,
}

impl OtelHook {
    /// The counter made from `meter`.
    pub fn new(meter: &Meter) -> Self {
        OtelHook {
            counter: meter
                .u64_counter(COUNTER)
                .with_description(
                    "Calls that took an old contract path (mcp-contract runtime layer)",
                )
                .build(),
        }
    }

    /// The counter made from the global meter provider's meter
    /// [`SCOPE`]: set the provider first (an instrument made before is a
    /// no-op for good).
    pub fn global() -> Self {
        Self::new(&opentelemetry::global::meter(SCOPE))
    }
}

impl DeprecationHook for OtelHook {
    fn record(&self, tool: &str, usage: &Usage, caller: &Caller<'_>) {
        let mut attributes = vec![
            KeyValue::new("tool", tool.to_string()),
            KeyValue::new("path", usage.to_string()),
            KeyValue::new("client", caller.client_key().to_string()),
        ];
        if let Some(agent) = caller.agent() {
            attributes.push(KeyValue::new("agent", agent.to_string()));
        }
        self.counter.add(1, &attributes);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    use opentelemetry::metrics::MeterProvider;
    use opentelemetry_sdk::error::OTelSdkResult;
    use opentelemetry_sdk::metrics::data::{AggregatedMetrics, MetricData, ResourceMetrics};
    use opentelemetry_sdk::metrics::exporter::PushMetricExporter;
    use opentelemetry_sdk::metrics::{PeriodicReader, SdkMeterProvider, Temporality};

    use super::*;
    use crate::runtime::stale::ErrorCode;

    type Points = BTreeMap<Vec<(String, String)>, u64>;

    /// What the SDK exported: per metric name, (monotonic, points by attributes).
    #[derive(Clone, Default)]
    struct Capture(Arc<Mutex<BTreeMap<String, (bool, Points)>>>);

    impl PushMetricExporter for Capture {
        async fn export(&self, metrics: &ResourceMetrics) -> OTelSdkResult {
            let mut seen = self.0.lock().unwrap();
            for scope in metrics.scope_metrics() {
                assert_eq!(scope.scope().name(), "test-scope");
                for m in scope.metrics() {
                    let AggregatedMetrics::U64(MetricData::Sum(sum)) = m.data() else {
                        panic!("{} is not a u64 sum", m.name());
                    };
                    let points = sum
                        .data_points()
                        .map(|p| {
                            let mut attrs: Vec<(String, String)> = p
                                .attributes()
                                .map(|kv| (kv.key.to_string(), kv.value.to_string()))
                                .collect();
                            attrs.sort();
                            (attrs, p.value())
                        })
                        .collect();
                    seen.insert(m.name().to_string(), (sum.is_monotonic(), points));
                }
            }
            Ok(())
        }
        fn force_flush(&self) -> OTelSdkResult {
            Ok(())
        }
        fn shutdown_with_timeout(&self, _: Duration) -> OTelSdkResult {
            Ok(())
        }
        fn temporality(&self) -> Temporality {
            Temporality::Cumulative
        }
    }

    fn attrs(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn one_counter_with_the_documented_name_and_attributes() {
        let capture = Capture::default();
        let provider = SdkMeterProvider::builder()
            .with_reader(PeriodicReader::builder(capture.clone()).build())
            .build();
        let hook = OtelHook::new(&provider.meter("test-scope"));
        let field = Usage::DeprecatedField {
            from: "query".into(),
            to: "search_text".into(),
        };
        let claude = Caller::client("claude-desktop", "1.2");
        hook.record("search", &field, &claude);
        hook.record("search", &field, &claude);
        hook.record("search", &field, &Caller::UNKNOWN);
        hook.record(
            "order",
            &Usage::Rejected {
                code: ErrorCode::ReservedField,
            },
            &claude.with_agent("nightly-batch"),
        );
        provider.force_flush().unwrap();
        let seen = capture.0.lock().unwrap().clone();
        assert_eq!(seen.keys().collect::<Vec<_>>(), [COUNTER]);
        let (monotonic, points) = &seen[COUNTER];
        assert!(monotonic);
        let want: Points = [
            (
                attrs(&[
                    ("tool", "search"),
                    ("path", "field:query"),
                    ("client", "claude-desktop/1.2"),
                ]),
                2,
            ),
            (
                attrs(&[
                    ("tool", "search"),
                    ("path", "field:query"),
                    ("client", "unknown"),
                ]),
                1,
            ),
            (
                attrs(&[
                    ("tool", "order"),
                    ("path", "rejected:RESERVED_FIELD"),
                    ("client", "claude-desktop/1.2"),
                    ("agent", "nightly-batch"),
                ]),
                1,
            ),
        ]
        .into_iter()
        .collect();
        assert_eq!(points, &want);
        provider.shutdown().unwrap();
    }
}
