//! A weather server written the way rmcp's own examples are: `#[tool_router]`
//! on an impl block, `async fn` handlers on `&self`, `Parameters<T>` inputs,
//! `Json<T>` outputs, a `#[prompt_router]`. Nothing in it names
//! mcp-contract except `main`'s wrapper line ([`serve`]); `build.rs` locks
//! the tools in `contracts/mcp-contract.lock`.
//!
//! Its migration record (`contracts/migrations.toml`) acknowledges one
//! deliberate break: `get_forecast`'s `city` became `location`. The wrapper
//! publishes `city` as a deprecated alias and accepts it.

use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{GetPromptResult, PromptMessage, Role, ServerCapabilities, ServerConfig};
use rmcp::ServerHandler;
use rmcp::{prompt, prompt_handler, prompt_router, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Arguments of `get_forecast`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ForecastArgs {
    /// City name, e.g. "Lisbon".
    pub location: String,
    /// How many days ahead (1 to 7; default 3).
    #[serde(default)]
    pub days: Option<u8>,
}

/// One day of a forecast.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Day {
    pub day: u8,
    pub summary: Sky,
    /// Highest temperature, in °C.
    pub high_c: i32,
}

/// The sky, roughly.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Sky {
    Sunny,
    Cloudy,
    Rain,
}

/// A forecast for one place.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Forecast {
    pub location: String,
    pub days: Vec<Day>,
}

/// The cities the server knows.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Cities {
    pub cities: Vec<String>,
}

/// Arguments of the `trip_advice` prompt.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct TripArgs {
    /// Where the trip goes.
    pub destination: String,
}

const CITIES: &[&str] = &["Lisbon", "Oslo", "Nairobi"];

/// The server (stateless: the forecast is computed from the city's name).
#[derive(Clone, Default)]
pub struct Weather;

#[tool_router(vis = "pub")]
impl Weather {
    pub fn new() -> Self {
        Weather
    }

    /// Forecast for a city, day by day.
    #[tool(annotations(read_only_hint = true, open_world_hint = false))]
    async fn get_forecast(
        &self,
        Parameters(args): Parameters<ForecastArgs>,
    ) -> Result<Json<Forecast>, String> {
        if !CITIES.contains(&args.location.as_str()) {
            return Err(format!("unknown city `{}`", args.location));
        }
        let days = args.days.unwrap_or(3).clamp(1, 7);
        let seed = args.location.len() as i32;
        Ok(Json(Forecast {
            location: args.location,
            days: (1..=days)
                .map(|day| Day {
                    day,
                    summary: match (seed + i32::from(day)) % 3 {
                        0 => Sky::Sunny,
                        1 => Sky::Cloudy,
                        _ => Sky::Rain,
                    },
                    high_c: 12 + seed + i32::from(day),
                })
                .collect(),
        }))
    }

    /// Every city with a forecast.
    #[tool(name = "list_cities", annotations(read_only_hint = true))]
    async fn cities(&self) -> Json<Cities> {
        Json(Cities {
            cities: CITIES.iter().map(|c| c.to_string()).collect(),
        })
    }
}

#[prompt_router(vis = "pub")]
impl Weather {
    /// Advice for packing, from the forecast at the destination.
    #[prompt(name = "trip_advice")]
    async fn trip_advice(&self, Parameters(args): Parameters<TripArgs>) -> GetPromptResult {
        GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            format!(
                "Call get_forecast for {} and tell me what to pack.",
                args.destination
            ),
        )])
    }
}

#[tool_handler]
#[prompt_handler]
impl ServerHandler for Weather {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .build(),
        )
        .with_instructions("Weather forecasts for a few cities.")
    }
}
